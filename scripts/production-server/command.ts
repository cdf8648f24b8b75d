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

/** The bound on V8's old generation of a process that answers requests, in MB (heapBound). */
export const SERVER_HEAP_MB = 512;

/** Whether Node.js flags (a command line's, or NODE_OPTIONS's) already bound the old generation: a deployment's own choice wins. */
export const boundsHeap = (flags: readonly string[]) => flags.some((flag) => /^--max[-_]old[-_]space[-_]size(=|$)/.test(flag));

/**
 * The server's bound on its heap's old generation, unless NODE_OPTIONS sets one. Its live heap stays flat
 * however large the data; unbounded, on a machine with memory to spare, V8 let it grow to several times that
 * between full collections, so the server's peak said when the last collection had run, not what its work
 * holds. Under a bound V8 grows the heap by a smaller factor before collecting, and the process touches
 * fewer fresh pages (bench/README.md, "Where the memory goes").
 */
export function heapBound(nodeOptions: string | undefined): string[] {
  return boundsHeap((nodeOptions ?? '').split(/\s+/)) ? [] : [`--max-old-space-size=${SERVER_HEAP_MB}`];
}

/**
 * The production server's command line after `node` (scripts/serve.ts): `npm start`, the tests and the bench
 * run it; `apiOnly` serves /v1 alone, without Next (`npm run start:api`).
 */
export function productionServerArgs(port: number | string, hostname?: string, opts: { apiOnly?: boolean } = {}): string[] {
  return [...V8_FLAGS, ...heapBound(process.env.NODE_OPTIONS), '--import', LOAD_TYPESCRIPT, SERVE, '-p', String(port), ...(hostname ? ['-H', hostname] : []), ...(opts.apiOnly ? ['--api-only'] : [])];
}
