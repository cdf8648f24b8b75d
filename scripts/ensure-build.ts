/**
 * Builds the production app when there is no build or the sources changed since the last one, so
 * `npm start` and `npm test` never run a stale build and never rebuild for nothing.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const INPUTS = ['app', 'components', 'lib', 'public', 'instrumentation.ts', 'proxy.ts', 'next.config.ts', 'postcss.config.mjs', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const STAMP = path.join(ROOT, '.next/escrow-source-hash');

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

export function ensureBuild(): void {
  const current = sourceHash();
  const built = fs.existsSync(path.join(ROOT, '.next/BUILD_ID')) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === current;
  if (built) return;
  const first = !fs.existsSync(path.join(ROOT, '.next/BUILD_ID'));
  console.log(
    first
      ? 'Building the production app (next build): the first build takes a minute or two; later runs reuse it until the sources change…'
      : 'The sources changed since the last build: building the production app again (next build)…',
  );
  // Another build of this checkout (a second terminal, a parallel helper) holds Next's lock: wait for it.
  for (let attempt = 1; ; attempt++) {
    const build = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/.bin/next'), 'build'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    process.stdout.write(build.stdout ?? '');
    process.stderr.write(build.stderr ?? '');
    if (build.status === 0) break;
    const locked = /build still in progress|Another next build process is already running/i.test(`${build.stdout}${build.stderr}`);
    if (!locked || attempt >= 20) throw new Error(`next build failed (exit ${build.status})`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 15_000);
  }
  fs.writeFileSync(STAMP, current);
}

if (require.main === module) ensureBuild();
