/**
 * Two `npm start` at once in one checkout that needs a build (issue #58 item 7): one builds and runs, the other waits
 * for that build instead of building again, then stops with its reason; the running server is never broken.
 * The checkout is a copy of this one's files without its build, as a fresh clone is; the build's cache comes along
 * so the test builds in seconds rather than minutes.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../support/test-server';

const ROOT = path.resolve(__dirname, '../..');

type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

function npmStart(checkout: string, env: Record<string, string>): Started {
  const child = spawn('npm', ['start'], { cwd: checkout, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env }, detached: true });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * The checkout's files (tracked and new, not ignored), the dependencies as hard links (the build resolves them inside
 * the checkout, so a symlink out of it will not do), the build's cache copied.
 */
function copyOfCheckout(): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-checkout-'));
  const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\0').filter(Boolean);
  for (const file of files) {
    const from = path.join(ROOT, file);
    if (!fs.existsSync(from)) continue;
    fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    fs.copyFileSync(from, path.join(copy, file));
  }
  const linked = spawnSync('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules')]);
  if (linked.status !== 0) fs.cpSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), { recursive: true });
  if (fs.existsSync(path.join(ROOT, '.next/cache'))) fs.cpSync(path.join(ROOT, '.next/cache'), path.join(copy, '.next/cache'), { recursive: true });
  return copy;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

async function until(what: string, done: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const stopGroup = async (started: Started | undefined) => {
  if (!started?.child.pid || started.child.exitCode !== null) return;
  process.kill(-started.child.pid, 'SIGTERM');
  await Promise.race([started.exited, new Promise((r) => setTimeout(r, 20_000))]);
  if (started.child.exitCode === null) process.kill(-started.child.pid, 'SIGKILL');
};

describe.skipIf(inject('database') === 'postgres')('two starts at once in a checkout without a build', () => {
  let checkout = '';
  const starts: Started[] = [];

  beforeAll(() => {
    checkout = copyOfCheckout();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(starts.map(stopGroup));
    if (checkout) fs.rmSync(checkout, { recursive: true, force: true });
  }, 60_000);

  it('builds once: one server runs, the other waits for that build, then stops with its reason, and the first keeps running', async () => {
    const port = await freePort();
    const env = { PORT: String(port), HOST: '127.0.0.1', ESCROW_DATA_DIR: path.join(checkout, '.data'), ESCROW_SEED_DEMO: '0' };
    starts.push(npmStart(checkout, env), npmStart(checkout, env));
    const [a, b] = starts as [Started, Started];
    const readyz = `http://127.0.0.1:${port}/readyz`;

    // One of the two ends, having said why; the other serves.
    const first = await Promise.race([a.exited.then(() => 'a' as const), b.exited.then(() => 'b' as const)]);
    const [stopped, running] = first === 'a' ? [a, b] : [b, a];
    expect(await stopped.exited).not.toBe(0);
    expect(stopped.output()).toMatch(/Escrow Desk could not start: .*(already in use by process|EADDRINUSE)|could not listen/);
    await until('the other server answers /readyz', () => answers(readyz), 240_000);

    const output = `${a.output()}\n${b.output()}`;
    expect(output.match(/Building the production app/g) ?? [], output).toHaveLength(1);
    expect(output).toContain('is building the production app: waiting for its build');
    expect(output).not.toMatch(/Could not find a production build/);

    // It says where to sign in once its dashboard answers too (a first request after /readyz can take seconds on a
    // busy machine), and is still there, answering.
    const banner = `Escrow Desk is running at http://127.0.0.1:${port}`;
    await until('the running server says where it runs', () => running.output().includes(banner), 120_000);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(running.child.exitCode).toBeNull();
    expect(await answers(readyz)).toBe(true);
  }, 420_000);
});
