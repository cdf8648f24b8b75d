import fs from 'node:fs';
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

/** The contract modules components may take values from (lib/contracts/zod-free.test.ts checks they stay free of zod). */
const zodFreeContracts = JSON.parse(fs.readFileSync(new URL('./lib/contracts/zod-free.json', import.meta.url), 'utf8'));

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      // Destructuring a field away (`const { secret: _drop, ...rest }`) is how we omit fields.
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // The import graph stays acyclic: a circle (a service importing the lapse applier that imports it
    // back) makes load order matter and hides which module owns a step.
    // Every folder; circles of type-only imports, which this rule skips, are found by madge in `npm test`'s lint step.
    files: ['**/*.{ts,tsx,mts,mjs}'],
    // Dependencies are not parsed: a circle through a package is not ours to break.
    settings: { 'import/ignore': ['node_modules'] },
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Components run in the browser: a value imported from a contract module brings zod and every schema
    // beside it into the page's first load. Plain values live in the contracts' zod-free modules (zod-free.json).
    files: ['components/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: 'Components run in the browser: validate in the server action.', allowTypeImports: true }],
          patterns: [
            {
              group: ['@/lib/contracts/*', ...zodFreeContracts.map((name) => `!@/lib/contracts/${name}`)],
              message: 'A contract module brings zod into the browser: import types only, or put the value in lib/contracts/dashboard-plain.ts.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // The operations in lib/server/services stand on the engine, never the other way round: an engine
    // file that reached up into an operation would make every operation's step depend on another's.
    files: ['lib/server/engine/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)services(/|$)',
              message: 'lib/server/engine imports no service: move the shared part down into the engine.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests and the benchmark read response bodies the API suites already check field by field.
    files: ['e2e/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // sdk/src/schema.ts is openapi-typescript's output (scripts/generate-sdk.ts): typechecked, but not ours to lint.
  globalIgnores(['.next/**', 'node_modules/**', '.data/**', 'e2e/.artifacts/**', 'test-results/**', 'playwright-report/**', 'bench/.tmp/**', 'sdk/dist/**', 'sdk/src/schema.ts', 'next-env.d.ts']),
]);
