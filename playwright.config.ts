import path from 'node:path';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/browser-check';

/**
 * The browser suite: Debian's Chromium against the production build (started once by the global setup
 * on a fresh embedded database, or on PostgreSQL when TEST_DATABASE_URL is set).
 */
const CHROMIUM = {
  browserName: 'chromium' as const,
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  },
};
const CLOCK_SPECS = /test-clock.*\.spec\.ts$/;

/** TEST_TIMINGS=DIR (scripts/test.ts) keeps a JSON report beside vitest's, for scripts/test-timings.ts. */
function reporters(): ReporterDescription[] {
  const dir = process.env.TEST_TIMINGS;
  if (!dir) return [['list']];
  const database = process.env.TEST_DATABASE_URL ? 'postgresql' : 'embedded';
  return [['list'], ['json', { outputFile: path.resolve(dir, `playwright-${database}.json`) }]];
}

export default defineConfig({
  testDir: './e2e/dashboard',
  globalSetup: './e2e/support/dashboard-global-setup.ts',
  outputDir: './test-results',
  // Two cores: one worker per spec file at most two at once; specs inside a file run in order.
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // A test's budget allows for a shared 2-core machine running every step at half speed.
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: reporters(),
  use: {
    baseURL: process.env.DASHBOARD_BASE_URL,
    // A trace snapshots the page at every step of every test, failing or not, and the whole suite pays for it.
    // To see one of a failing test: npx playwright test --trace retain-on-failure <spec> (README, "Tests").
    trace: 'off',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    locale: 'en-NG',
    timezoneId: 'Africa/Lagos',
    viewport: { width: 1280, height: 900 },
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: CLOCK_SPECS,
      use: CHROMIUM,
    },
    {
      // The test clock moves the demo client's time for all of its records: run these once every other
      // spec is done, so no inspection or return window of theirs lapses under them.
      name: 'chromium-test-clock',
      testMatch: CLOCK_SPECS,
      dependencies: ['chromium'],
      use: CHROMIUM,
    },
  ],
});
