/**
 * The one test command (README, .ci/run): builds if needed (which type-checks), lints, then unit tests, the HTTP suite against the
 * production server, and the browser suite; first of all it makes sure Chromium is there (`--check-browser`: only that). TEST_DATABASE_URL=postgres://… runs the same suites on PostgreSQL.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureChromium } from './browser-check';
import { ensureBuild } from './ensure-build';

const ROOT = path.resolve(__dirname, '..');
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);

function run(label: string, command: string, args: string[]): boolean {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', TZ: 'UTC' } });
  return result.status === 0;
}

const hasBrowserSpecs = fs.existsSync(path.join(ROOT, 'e2e/dashboard'));
// Before any build: a machine without the browser learns it in a second, not after the other suites.
if (hasBrowserSpecs) {
  const browser = ensureChromium();
  if (!browser.ok) {
    console.error(`\n${browser.message}\n`);
    process.exit(1);
  }
}
if (process.argv.includes('--check-browser')) process.exit(0);

ensureBuild();
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const database = onPostgres ? 'PostgreSQL' : 'embedded PGlite';
// Type-checking and lint do not depend on the database: once per CI run is enough.
const results = onPostgres ? [] : [run('typecheck', bin('tsc'), ['--noEmit']), run('lint', bin('eslint'), ['.', '--max-warnings', '0'])];
results.push(run(`unit and HTTP tests (${database})`, bin('vitest'), ['run']));
if (hasBrowserSpecs) results.push(run(`browser tests (${database})`, bin('playwright'), ['test']));
process.exit(results.every(Boolean) ? 0 : 1);
