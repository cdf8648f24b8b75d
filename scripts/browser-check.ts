/**
 * The browser suite drives Debian's Chromium (Playwright's own browsers cannot be downloaded here). The test command
 * looks for it before building anything, so a fresh machine learns at once what it lacks rather than after minutes
 * of builds and a wall of "executable doesn't exist" failures.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** ESCROW_CHROMIUM_PATH points the suite and the benchmark at another Chromium build. */
export const CHROMIUM_PATH = process.env.ESCROW_CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
export const INSTALL_COMMAND = 'apt-get install -y chromium';

export type BrowserCheck = { ok: true; installed: boolean } | { ok: false; message: string };

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function canInstallWithApt(): boolean {
  return process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Finds Chromium; where it is missing, installs Debian's package when running as root with apt, or says the exact command. */
export function ensureChromium(log: (line: string) => void = console.log): BrowserCheck {
  if (isExecutable(CHROMIUM_PATH)) return { ok: true, installed: false };
  if (!canInstallWithApt()) {
    return {
      ok: false,
      message: `The browser tests need Chromium at ${CHROMIUM_PATH} and it is not installed. Run:\n\n    sudo ${INSTALL_COMMAND}\n\nthen npm test again.`,
    };
  }
  log(`Chromium is not at ${CHROMIUM_PATH}: installing Debian's package (${INSTALL_COMMAND})…`);
  const update = spawnSync('apt-get', ['update'], { stdio: 'inherit' });
  const install = update.status === 0 ? spawnSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }) : update;
  if (install.status !== 0 || !isExecutable(CHROMIUM_PATH)) {
    return { ok: false, message: `Installing Chromium failed (${INSTALL_COMMAND} exited ${install.status}). Install it yourself and run npm test again.` };
  }
  return { ok: true, installed: true };
}

if (require.main === module) {
  const result = ensureChromium();
  if (!result.ok) {
    console.error(result.message);
    process.exit(1);
  }
  console.log(`Chromium: ${CHROMIUM_PATH}`);
}
