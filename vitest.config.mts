import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));

const alias = {
  '@': root,
  // `server-only` throws outside a React Server environment; tests import server modules directly.
  'server-only': path.join(root, 'lib/test-support/empty-module.ts'),
};

export default defineConfig({
  resolve: { alias },
  test: {
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
