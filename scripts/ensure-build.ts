/**
 * Builds the production app when there is no build or the sources changed since the last one, so
 * `npm start` and `npm test` never run a stale build and never rebuild for nothing. Two starts of one checkout at
 * once build once: the second waits for the first's build and uses it (a build replaces .next, which would pull the
 * files from under a server the first start is already running).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const INPUTS = ['app', 'components', 'lib', 'public', 'instrumentation.ts', 'proxy.ts', 'next.config.ts', 'postcss.config.mjs', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const STAMP = path.join(ROOT, '.next/escrow-source-hash');
/** Held by the one process building this checkout; outside .next, which a build replaces. */
const BUILD_LOCK = path.join(ROOT, '.next-build.lock');

function* walk(entry: string): Generator<string> {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return;
  if (fs.statSync(full).isDirectory()) {
    for (const child of fs.readdirSync(full).sort()) yield* walk(path.join(entry, child));
  } else if (!/\.test\.tsx?$/.test(entry)) {
    yield entry;
  }
}

export function sourceHash(): string {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of walk(input)) hash.update(file).update('\0').update(fs.readFileSync(path.join(ROOT, file))).update('\0');
  }
  return hash.digest('hex');
}

const builtFrom = (hash: string) => fs.existsSync(path.join(ROOT, '.next/BUILD_ID')) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === hash;

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs `work` holding the checkout's build lock, waiting while another living process holds it. */
function withBuildLock(work: () => void): void {
  let said = false;
  for (;;) {
    try {
      fs.writeFileSync(BUILD_LOCK, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(fs.readFileSync(BUILD_LOCK, 'utf8'), 10);
      // A holder that died mid-build (kill -9) left its lock behind: it is stale.
      if (!Number.isInteger(holder) || !alive(holder)) {
        fs.rmSync(BUILD_LOCK, { force: true });
        continue;
      }
      if (!said) console.log(`Another start of this checkout (process ${holder}) is building the production app: waiting for its build…`);
      said = true;
      sleepSync(500);
    }
  }
  try {
    work();
  } finally {
    fs.rmSync(BUILD_LOCK, { force: true });
  }
}

export function ensureBuild(): void {
  const current = sourceHash();
  if (builtFrom(current)) return;
  withBuildLock(() => {
    // The build another start just finished is this one's.
    if (!builtFrom(current)) build(current);
  });
}

/**
 * The production servers of this checkout that run a build (scripts/serve.ts marks each): a build would replace
 * the files they serve.
 */
export const SERVING_DIR = path.join(ROOT, '.next-serving');

function runningServers(): number[] {
  if (!fs.existsSync(SERVING_DIR)) return [];
  return fs
    .readdirSync(SERVING_DIR)
    .map((name) => Number.parseInt(name, 10))
    .filter((pid) => Number.isInteger(pid) && pid !== process.pid && alive(pid));
}

function build(current: string): void {
  const serving = runningServers();
  if (serving.length > 0) {
    throw new Error(
      `A server of this checkout (process ${serving.join(', ')}) runs the previous build, and the sources changed since: stop it before ` +
        'starting again here (a build replaces the files it serves), or start the new one from another checkout.',
    );
  }
  const first = !fs.existsSync(path.join(ROOT, '.next/BUILD_ID'));
  console.log(
    first
      ? 'Building the production app (next build): the first build takes a minute or two; later runs reuse it until the sources change…'
      : 'The sources changed since the last build: building the production app again (next build)…',
  );
  // A `next build` started by hand holds Next's own lock: wait for it.
  for (let attempt = 1; ; attempt++) {
    const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/.bin/next'), 'build'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    process.stdout.write(run.stdout ?? '');
    process.stderr.write(run.stderr ?? '');
    if (run.status === 0) break;
    const locked = /build still in progress|Another next build process is already running/i.test(`${run.stdout}${run.stderr}`);
    if (!locked || attempt >= 20) throw new Error(`next build failed (exit ${run.status})`);
    sleepSync(15_000);
  }
  fs.writeFileSync(STAMP, current);
}

if (require.main === module) ensureBuild();
