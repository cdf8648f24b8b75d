import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));

const alias = {
  '@': root,
  // `server-only` throws outside a React Server environment; tests import server modules directly.
  'server-only': path.join(root, 'lib/test-support/empty-module.ts'),
};

/**
 * Four files at once on two cores: the HTTP suite's files spend most of their time waiting on the servers under test
 * and on timers (retries, deadlines, restarts), so the cores stay busy only with more files in flight than cores.
 */
const maxWorkers = 4;

/**
 * Bad input is refused by the operations' contracts before any statement reaches the database, so on PostgreSQL these
 * suites would run the very same code a second time: they run on the embedded database only (README, "Tests").
 */
const BEFORE_THE_DATABASE = ['e2e/api/bad-input*.test.ts'];

/**
 * Three projects (`npm test -- --only=unit|api` picks them, see scripts/test.ts): `unit` never touches a database,
 * `database` is the lib tests on a real database (`*.db.test.ts`: PGlite, and PostgreSQL with TEST_DATABASE_URL),
 * `api` the HTTP suite against the production server.
 */
export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['lib/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: ['**/*.db.test.ts'],
          env: { TZ: 'UTC' },
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'database',
          include: ['lib/**/*.db.test.ts'],
          env: { TZ: 'UTC' },
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'api',
          include: ['e2e/api/**/*.test.ts'],
          exclude: process.env.TEST_DATABASE_URL ? BEFORE_THE_DATABASE : [],
          globalSetup: ['e2e/api/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          env: { TZ: 'UTC' },
        },
      },
    ],
  },
});
