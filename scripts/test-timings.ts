/**
 * Where a test run's time went: each test file's seconds, longest first, from the JSON reports a run kept with
 * TEST_TIMINGS=DIR (scripts/test.ts, playwright.config.ts).
 *
 *   Usage: npx tsx scripts/test-timings.ts DIR [--top=N]
 */
import fs from 'node:fs';
import path from 'node:path';

export type FileTime = { file: string; seconds: number; tests: number };
export type SuiteTimes = { suite: string; wallSeconds: number; files: FileTime[] };

type VitestReport = { startTime: number; testResults: Array<{ name: string; startTime: number; endTime: number; assertionResults: unknown[] }> };

/** The checkout a report's file belongs to: the nearest folder above it with a package.json. */
export function checkoutRoot(file: string): string {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
  }
  return path.dirname(file);
}

export function vitestTimes(report: VitestReport, suite: string, rootOf: (file: string) => string = checkoutRoot): SuiteTimes {
  const files = report.testResults.map((file) => ({
    file: path.relative(rootOf(file.name), file.name),
    seconds: (file.endTime - file.startTime) / 1000,
    tests: file.assertionResults.length,
  }));
  const end = Math.max(report.startTime, ...report.testResults.map((file) => file.endTime));
  return { suite, wallSeconds: (end - report.startTime) / 1000, files };
}

type PlaywrightSuite = { file: string; specs?: Array<{ tests: Array<{ results: Array<{ duration: number }> }> }>; suites?: PlaywrightSuite[] };
type PlaywrightReport = { stats: { duration: number }; suites: PlaywrightSuite[] };

/** A spec file's tests run one after another in one worker, so its time is the sum of its results. */
export function playwrightTimes(report: PlaywrightReport, suite: string): SuiteTimes {
  const byFile = new Map<string, FileTime>();
  const visit = (node: PlaywrightSuite) => {
    const entry = byFile.get(node.file) ?? { file: path.join('e2e/dashboard', node.file), seconds: 0, tests: 0 };
    for (const spec of node.specs ?? []) {
      for (const test of spec.tests) {
        entry.tests += 1;
        entry.seconds += test.results.reduce((sum, result) => sum + result.duration, 0) / 1000;
      }
    }
    byFile.set(node.file, entry);
    for (const child of node.suites ?? []) visit(child);
  };
  for (const node of report.suites) visit(node);
  return { suite, wallSeconds: report.stats.duration / 1000, files: [...byFile.values()] };
}

export function timingLines(times: SuiteTimes, top: number): string[] {
  const files = [...times.files].sort((a, b) => b.seconds - a.seconds);
  const total = files.reduce((sum, file) => sum + file.seconds, 0);
  const lines = [`${times.suite}: ${files.length} files, ${Math.round(times.wallSeconds)} s on the clock, ${Math.round(total)} s of file time`];
  for (const file of files.slice(0, top)) lines.push(`  ${file.seconds.toFixed(1).padStart(7)} s  ${String(file.tests).padStart(4)} tests  ${file.file}`);
  if (files.length > top) lines.push(`  … ${files.length - top} more, ${Math.round(files.slice(top).reduce((sum, file) => sum + file.seconds, 0))} s together`);
  return lines;
}

function main(): number {
  const [dir, ...rest] = process.argv.slice(2);
  if (!dir || rest.some((arg) => !arg.startsWith('--top='))) {
    console.error('Usage: npx tsx scripts/test-timings.ts DIR [--top=N]');
    return 2;
  }
  const top = Number(rest.find((arg) => arg.startsWith('--top='))?.slice('--top='.length) ?? 25);
  const reports = fs.readdirSync(dir).filter((name) => /^(vitest|playwright)-\w+\.json$/.test(name)).sort();
  if (reports.length === 0) {
    console.error(`No vitest-*.json or playwright-*.json in ${dir}: run npm test with TEST_TIMINGS=${dir}`);
    return 1;
  }
  for (const name of reports) {
    const report = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    const suite = name.replace(/\.json$/, '');
    const times = name.startsWith('vitest') ? vitestTimes(report, suite) : playwrightTimes(report, suite);
    console.log(`${timingLines(times, top).join('\n')}\n`);
  }
  return 0;
}

if (require.main === module) process.exit(main());
