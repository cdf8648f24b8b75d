/**
 * The one test command (README, .ci/run): builds if needed (which type-checks), lints, then unit tests, the HTTP suite against the
 * production server, and the browser suite. TEST_DATABASE_URL=postgres://… runs the same suites on PostgreSQL.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureBuild } from './ensure-build';

const ROOT = path.resolve(__dirname, '..');
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);

function run(label: string, command: string, args: string[]): boolean {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', TZ: 'UTC' } });
  return result.status === 0;
}

ensureBuild();
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const database = onPostgres ? 'PostgreSQL' : 'embedded PGlite';
// Type-checking and lint do not depend on the database: once per CI run is enough.
const results = onPostgres ? [] : [run('typecheck', bin('tsc'), ['--noEmit']), run('lint', bin('eslint'), ['.', '--max-warnings', '0'])];
results.push(run(`unit and HTTP tests (${database})`, bin('vitest'), ['run']));
const hasBrowserSpecs = fs.existsSync(path.join(ROOT, 'e2e/dashboard'));
if (hasBrowserSpecs) results.push(run(`browser tests (${database})`, bin('playwright'), ['test']));
process.exit(results.every(Boolean) ? 0 : 1);
