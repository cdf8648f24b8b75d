/**
 * The one test command (README, .ci/run). On the embedded database it runs everything: typecheck and lint side by side,
 * the unit tests, the HTTP suite against the production server, and the browser suite (after making sure Chromium is there).
 * With TEST_DATABASE_URL=postgres://… it runs what the database can change: the unit tests on a real database and the HTTP
 * suite (the browser suite talks to the API over HTTP, so it runs once, on the embedded database).
 *
 *   --only=lint,unit,api,browser   just those suites (on PostgreSQL too: `--only=browser` runs the browser suite there)
 *   --changed                      the tests the working tree's change touches, with typecheck and lint of the changed files
 *   --check-browser                only the Chromium check
 *
 * TEST_TIMINGS=DIR keeps each suite's JSON report there; `npx tsx scripts/test-timings.ts DIR` lists where the time went.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureChromium } from './browser-check';
import { ensureBuild } from './ensure-build';
import { DATA_TEMPLATE_ENV, makeDataTemplate } from '../e2e/support/data-template';
import { parseOptions, type Options } from './test-options';
import { nonBlankLines, printSummary, vitestFailures, type Step } from './test-summary';

const ROOT = path.resolve(__dirname, '..');
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);
const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', TZ: 'UTC' };

/** One step, its output on ours as it goes; `failuresOf` says what failed. */
function run(label: string, command: string, args: string[], failuresOf: () => string[] = () => []): Step {
  console.log(`\n▶ ${label}`);
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: ROOT, env, stdio: 'inherit' });
  const ok = result.status === 0;
  return { label, ok, seconds: (performance.now() - started) / 1000, failures: ok ? [] : failuresOf() };
}

/**
 * No import circle in the tree, type-only imports included (eslint's import/no-cycle skips those): a circle of
 * names still leaves a reader no module to start from.
 */
const IMPORT_CYCLES_ARGS = [
  '--circular', '--extensions', 'ts,tsx,mts', '--ts-config', 'tsconfig.json', '--no-spinner',
  'lib', 'app', 'components', 'scripts', 'bench', 'e2e', 'proxy.ts', 'instrumentation.ts', 'next.config.ts', 'playwright.config.ts', 'vitest.config.mts',
];

/**
 * A step that prints only at its end (typecheck, lint), run beside others: its output is kept and printed whole
 * when it ends, and what it printed is what failed.
 */
function runCaptured(label: string, command: string, args: string[]): Promise<Step> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => {
      console.log(`\n▶ ${label}${output.trim() ? `\n${output.trimEnd()}` : ''}`);
      const ok = code === 0;
      resolve({ label, ok, seconds: (performance.now() - started) / 1000, failures: ok ? [] : nonBlankLines(output) });
    });
  });
}

/** Files the working tree changed against HEAD, and new untracked ones. */
function changedFiles(): string[] {
  const git = (args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  return [...new Set([...git(['diff', '--name-only', 'HEAD']), ...git(['ls-files', '--others', '--exclude-standard'])])].filter((file) => fs.existsSync(path.join(ROOT, file)));
}

/**
 * The vitest projects of the chosen suites (vitest.config.mts): `unit` is the pure tests and those on a real database;
 * on PostgreSQL only the latter, as the rest cannot notice which database runs.
 */
function vitestProjects(options: Options): string[] {
  const projects: string[] = [];
  if (options.suites.has('unit')) projects.push(...(options.onPostgres ? ['database'] : ['unit', 'database']));
  if (options.suites.has('api')) projects.push('api');
  return projects;
}

async function main(): Promise<number> {
  const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2), onPostgres);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const hasBrowserSpecs = fs.existsSync(path.join(ROOT, 'e2e/dashboard'));
  const browser = hasBrowserSpecs && (options.suites.has('browser') || options.checkBrowserOnly);
  // Before any build: a machine without the browser learns it in a second, not after the other suites.
  if (browser) {
    const check = ensureChromium();
    if (!check.ok) {
      console.error(`\n${check.message}\n`);
      return 1;
    }
  }
  if (options.checkBrowserOnly) return 0;

  const projects = vitestProjects(options);
  if (projects.includes('api') || browser) ensureBuild();
  const database = onPostgres ? 'PostgreSQL' : 'embedded PGlite';
  const changed = options.changed ? changedFiles() : [];
  const steps: Step[] = [];
  // Made beside typecheck and lint: every embedded test server starts from a copy (e2e/support/data-template.ts).
  const template = !onPostgres && (projects.includes('api') || browser) ? fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-template-')) : undefined;
  const templateMade = template
    ? makeDataTemplate(template).then(
        () => (env[DATA_TEMPLATE_ENV] = template),
        (error) => console.warn(`No database template (each test server makes its own): ${String(error)}`),
      )
    : Promise.resolve();

  if (options.suites.has('lint')) {
    const linted = options.changed ? changed.filter((file) => /\.(ts|tsx|mjs|mts)$/.test(file)) : ['.'];
    const lint = linted.length > 0 ? [runCaptured('lint', bin('eslint'), [...linted, '--max-warnings', '0', '--no-warn-ignored'])] : [];
    const cycles = runCaptured('import cycles', bin('madge'), IMPORT_CYCLES_ARGS);
    steps.push(...(await Promise.all([runCaptured('typecheck', bin('tsc'), ['--noEmit']), ...lint, cycles])));
  }
  await templateMade;

  if (projects.length > 0) {
    const kept = process.env.TEST_TIMINGS;
    const reportDir = kept ? path.resolve(kept) : fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-test-'));
    fs.mkdirSync(reportDir, { recursive: true });
    const report = path.join(reportDir, `vitest-${onPostgres ? 'postgresql' : 'embedded'}.json`);
    const args = ['run', ...projects.map((name) => `--project=${name}`), '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
    if (options.changed) args.push('--changed', '--passWithNoTests');
    const names = projects.map((name) => (name === 'api' ? 'HTTP' : name)).join(', ');
    steps.push(run(`${names} tests (${database})`, bin('vitest'), args, () => vitestFailures(report, ROOT)));
    if (!kept) fs.rmSync(reportDir, { recursive: true, force: true });
  }

  if (browser) {
    const args = ['test', ...(options.changed ? ['--only-changed=HEAD', '--pass-with-no-tests'] : [])];
    steps.push(run(`browser tests (${database})`, bin('playwright'), args));
  }

  if (template) fs.rmSync(template, { recursive: true, force: true });
  printSummary(database, steps);
  return steps.every((step) => step.ok) ? 0 : 1;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
