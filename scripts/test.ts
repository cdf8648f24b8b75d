/**
 * The one test command (README, .ci/run): builds if needed (which type-checks), lints, then unit tests, the HTTP suite against the
 * production server, and the browser suite; first of all it makes sure Chromium is there (`--check-browser`: only that). TEST_DATABASE_URL=postgres://… runs the same suites on PostgreSQL.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureChromium } from './browser-check';
import { ensureBuild } from './ensure-build';
import { nonBlankLines, printSummary, vitestFailures, type Step } from './test-summary';

const ROOT = path.resolve(__dirname, '..');
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);

/**
 * One step, its output on ours as it goes. A step that prints only at its end (typecheck, lint) is captured as well
 * (`captured`), and what it printed is what failed; otherwise `failuresOf` says.
 */
function run(label: string, command: string, args: string[], { captured = false, failuresOf = () => [] as string[] } = {}): Step {
  console.log(`\n▶ ${label}`);
  const started = performance.now();
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', TZ: 'UTC' };
  const result = captured
    ? spawnSync(command, args, { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['inherit', 'pipe', 'pipe'] })
    : spawnSync(command, args, { cwd: ROOT, env, stdio: 'inherit' });
  if (captured) {
    process.stdout.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
  }
  const ok = result.status === 0;
  const failures = ok ? [] : captured ? nonBlankLines(`${result.stdout ?? ''}\n${result.stderr ?? ''}`) : failuresOf();
  return { label, ok, seconds: (performance.now() - started) / 1000, failures };
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
const steps = onPostgres
  ? []
  : [run('typecheck', bin('tsc'), ['--noEmit'], { captured: true }), run('lint', bin('eslint'), ['.', '--max-warnings', '0'], { captured: true })];
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-test-'));
const vitestReport = path.join(reportDir, 'vitest.json');
steps.push(run(`unit and HTTP tests (${database})`, bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`], { failuresOf: () => vitestFailures(vitestReport, ROOT) }));
if (hasBrowserSpecs) steps.push(run(`browser tests (${database})`, bin('playwright'), ['test']));

fs.rmSync(reportDir, { recursive: true, force: true });
printSummary(database, steps);
process.exit(steps.every((step) => step.ok) ? 0 : 1);
