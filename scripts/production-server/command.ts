import path from 'node:path';

const SERVE = path.resolve(__dirname, '../serve.ts');
/** tsx with tsconfig.server.json: the server loads lib/api and lib/server from source (load-typescript.mjs says why). */
const LOAD_TYPESCRIPT = path.resolve(__dirname, 'load-typescript.mjs');

/**
 * V8's allocation-site pretenuring kept putting short-lived objects of the first cluster worker straight
 * into the old generation, lengthening its collections and the read tail behind them (bench/README.md,
 * "What keeps the server's figures low"). Cluster workers inherit it with the rest of the primary's flags.
 */
const V8_FLAGS = ['--no-allocation-site-pretenuring'];

/**
 * The production server's command line after `node` (scripts/serve.ts): `npm start`, the tests and the bench
 * run it; `apiOnly` serves /v1 alone, without Next (`npm run start:api`).
 */
export function productionServerArgs(port: number | string, hostname?: string, opts: { apiOnly?: boolean } = {}): string[] {
  return [...V8_FLAGS, '--import', LOAD_TYPESCRIPT, SERVE, '-p', String(port), ...(hostname ? ['-H', hostname] : []), ...(opts.apiOnly ? ['--api-only'] : [])];
}
