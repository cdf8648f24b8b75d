/**
 * The test command's last lines (scripts/test-summary.ts): CI keeps only a log's end, so each failed vitest test
 * is named there, read from the JSON report of a real vitest run over a scratch suite with one test that
 * passes, one that fails and a file that fails before its tests run; a failed typecheck by what tsc printed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { nonBlankLines, summaryLines, vitestFailures } from './test-summary';

const ROOT = path.resolve(__dirname, '..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-test-summary-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

it('names each failed test and each file that failed to load, and not the ones that passed', () => {
  fs.writeFileSync(
    path.join(scratch, 'sums.test.ts'),
    `import { describe, expect, it } from 'vitest';
describe('sums', () => {
  it('one and one', () => expect(1 + 1).toBe(2));
  it('two and two', () => expect(2 + 2).toBe(5));
});
`,
  );
  fs.writeFileSync(path.join(scratch, 'broken.test.ts'), `throw new Error('the fixture cannot load');\n`);
  const report = path.join(scratch, 'report.json');
  const run = spawnSync(path.join(ROOT, 'node_modules/.bin/vitest'), ['run', '--root', scratch, '--reporter=json', `--outputFile.json=${report}`], {
    cwd: scratch,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status).toBe(1);

  const failures = vitestFailures(report, scratch);
  expect(failures).toHaveLength(2);
  expect(failures).toContainEqual(expect.stringMatching(/^sums\.test\.ts › sums two and two: AssertionError: expected 4 to be 5/));
  expect(failures).toContainEqual(expect.stringMatching(/^broken\.test\.ts: .*the fixture cannot load/));

  const lines = summaryLines('embedded PGlite', [
    { label: 'lint', ok: true, seconds: 12.4, failures: [] },
    { label: 'unit and HTTP tests (embedded PGlite)', ok: false, seconds: 301.6, failures },
  ]);
  expect(lines[0]).toBe('== embedded PGlite: FAILED ==');
  expect(lines[1]).toBe('passed  lint (12 s)');
  expect(lines[2]).toBe('FAILED  unit and HTTP tests (embedded PGlite) (302 s)');
  expect(lines.slice(3).map((line) => line.trim())).toEqual(failures);
});

it('says so where vitest stopped before writing its report', () => {
  expect(vitestFailures(path.join(scratch, 'never-written.json'), scratch)).toEqual(['(vitest wrote no report: it stopped before running the tests)']);
});

it('keeps what a failed typecheck printed, an error a line', () => {
  fs.writeFileSync(path.join(scratch, 'typed.ts'), `export const count: number = 'three';\n`);
  const run = spawnSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['--noEmit', '--strict', 'typed.ts'], { cwd: scratch, encoding: 'utf8', timeout: 60_000 });
  expect(run.status).not.toBe(0);
  const failures = nonBlankLines(`${run.stdout}\n${run.stderr}`);
  expect(failures).toEqual([expect.stringMatching(/^typed\.ts\(1,14\): error TS2322: Type 'string' is not assignable to type 'number'\.$/)]);
  expect(summaryLines('embedded PGlite', [{ label: 'typecheck', ok: false, seconds: 40, failures }])).toEqual([
    '== embedded PGlite: FAILED ==',
    'FAILED  typecheck (40 s)',
    `        ${failures[0]}`,
  ]);
}, 60_000); // a real tsc, slow to start on a busy machine
