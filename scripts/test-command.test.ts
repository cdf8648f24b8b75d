/**
 * The README's test command on a machine without Chromium: it looks for the browser before building anything,
 * installs Debian's package where it can (root with apt-get), and otherwise stops at once with the exact command.
 * `--check-browser` runs only that first step; ESCROW_CHROMIUM_PATH stands in for a machine whose /usr/bin has none.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-test-command-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A PATH holding node (and, when given, a stand-in apt-get) but not the machine's apt-get. */
function pathWith(extraDir?: string): string {
  const nodeDir = path.join(scratch, 'node-only');
  fs.mkdirSync(nodeDir, { recursive: true });
  if (!fs.existsSync(path.join(nodeDir, 'node'))) fs.symlinkSync(process.execPath, path.join(nodeDir, 'node'));
  return [extraDir, nodeDir].filter(Boolean).join(':');
}

function testCommand(env: Record<string, string>) {
  const started = Date.now();
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/test.ts', '--check-browser'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { HOME: process.env.HOME ?? '/root', NODE_ENV: 'test', ...env },
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}`, seconds: (Date.now() - started) / 1000 };
}

describe('npm test on a machine without Chromium', () => {
  it('stops at once, before any build, with the exact command to run, where it cannot install', () => {
    const missing = path.join(scratch, 'absent/chromium');
    const result = testCommand({ ESCROW_CHROMIUM_PATH: missing, PATH: pathWith() });
    expect(result.status).toBe(1);
    expect(result.output).toContain(`need Chromium at ${missing} and it is not installed`);
    expect(result.output).toContain('sudo apt-get install -y chromium');
    expect(result.output).not.toContain('next build');
    expect(result.output).not.toContain('▶');
    expect(result.seconds).toBeLessThan(30);
  });

  it.runIf(process.getuid?.() === 0)('installs Debian’s chromium with apt-get when running as root, then goes on', () => {
    const installed = path.join(scratch, 'installed/chromium');
    const bin = path.join(scratch, 'apt-bin');
    const calls = path.join(scratch, 'apt-calls.log');
    fs.mkdirSync(bin, { recursive: true });
    // A stand-in apt-get: records its arguments and, on install, puts an executable where the package would.
    fs.writeFileSync(
      path.join(bin, 'apt-get'),
      `#!/bin/sh\necho "$@" >> '${calls}'\nif [ "$1" = install ]; then /bin/mkdir -p '${path.dirname(installed)}' && printf '#!/bin/sh\\n' > '${installed}' && /bin/chmod +x '${installed}'; fi\n`,
      { mode: 0o755 },
    );
    const result = testCommand({ ESCROW_CHROMIUM_PATH: installed, PATH: pathWith(bin) });
    expect(result.output).toContain('installing Debian');
    expect(result.status).toBe(0);
    expect(fs.readFileSync(calls, 'utf8').trim().split('\n')).toEqual(['--version', 'update', 'install -y chromium']);
    expect(fs.existsSync(installed)).toBe(true);
  });

  it.runIf(process.getuid?.() === 0)('says plainly when the install fails', () => {
    const bin = path.join(scratch, 'failing-apt');
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(bin, 'apt-get'), '#!/bin/sh\n[ "$1" = --version ] && exit 0\necho "E: Unable to locate package chromium" >&2\nexit 100\n', { mode: 0o755 });
    const result = testCommand({ ESCROW_CHROMIUM_PATH: path.join(scratch, 'never/chromium'), PATH: pathWith(bin) });
    expect(result.status).toBe(1);
    expect(result.output).toContain('installing Debian');
    expect(result.output).toContain('Installing Chromium failed (apt-get install -y chromium exited 100)');
  });

  it('goes straight on where Chromium is installed', () => {
    const present = path.join(scratch, 'present/chromium');
    fs.mkdirSync(path.dirname(present), { recursive: true });
    fs.writeFileSync(present, '#!/bin/sh\n', { mode: 0o755 });
    const result = testCommand({ ESCROW_CHROMIUM_PATH: present, PATH: pathWith() });
    expect(result.status).toBe(0);
    expect(result.output).not.toContain('apt-get');
  });
});
