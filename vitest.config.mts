import os from 'node:os';
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
 * Vitest's default is one test file at a time on a two-core machine (cores - 1). The HTTP suite's files spend
 * most of their time waiting on the servers under test and on timers (retries, deadlines, restarts), so two
 * at once finish sooner without starving those servers.
 */
const maxWorkers = Math.max(2, os.availableParallelism() - 1);

export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['lib/**/*.test.ts'],
          env: { TZ: 'UTC' },
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'api',
          include: ['e2e/api/**/*.test.ts'],
          globalSetup: ['e2e/api/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          env: { TZ: 'UTC' },
        },
      },
    ],
  },
});
