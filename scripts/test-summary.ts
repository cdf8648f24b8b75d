/**
 * The end of the test command's output: each step, passed or failed, and under a failed one what failed: each failed
 * vitest test on a line, or the first lines typecheck or lint printed.
 * CI keeps only a log's last lines, and vitest's own list of failures scrolls away under the browser suite's.
 */
import fs from 'node:fs';
import path from 'node:path';

export type Step = { label: string; ok: boolean; seconds: number; failures: string[] };

/** Each failed test of vitest's JSON report (`--reporter=json --outputFile.json=…`) on a line, or the file, where it failed before its tests ran. */
export function vitestFailures(reportFile: string, root: string): string[] {
  if (!fs.existsSync(reportFile)) return ['(vitest wrote no report: it stopped before running the tests)'];
  type Report = { testResults: Array<{ name: string; status: string; message?: string; assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }> }> };
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as Report;
  const firstLine = (text: string | undefined) => nonBlankLines(text ?? '')[0] ?? '';
  return report.testResults.flatMap((file) => {
    const where = path.relative(root, file.name);
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    if (failed.length === 0) return file.status === 'failed' ? [`${where}: ${firstLine(file.message)}`] : [];
    return failed.map((test) => `${where} › ${test.fullName}: ${firstLine(test.failureMessages[0])}`);
  });
}

/** Text a step printed (tsc's errors, eslint's problems, a test's error message), a line each, trimmed to 200 characters, without the blank ones. */
export function nonBlankLines(output: string): string[] {
  return output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => line.slice(0, 200));
}

export function summaryLines(database: string, steps: Step[]): string[] {
  const lines = [`== ${database}: ${steps.every((step) => step.ok) ? 'all passed' : 'FAILED'} ==`];
  for (const step of steps) {
    lines.push(`${step.ok ? 'passed' : 'FAILED'}  ${step.label} (${Math.round(step.seconds)} s)`);
    for (const failure of step.failures.slice(0, 10)) lines.push(`        ${failure}`);
    if (step.failures.length > 10) lines.push(`        … and ${step.failures.length - 10} more`);
  }
  return lines;
}

export function printSummary(database: string, steps: Step[]): void {
  console.log(`\n${summaryLines(database, steps).join('\n')}`);
}
