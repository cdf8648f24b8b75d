import path from 'node:path';

const SERVE = path.resolve(__dirname, '../serve.ts');

/**
 * V8's allocation-site pretenuring allocates straight into the old generation from sites whose objects
 * have survived young collections at a high rate. The first cluster worker, which alone answers the
 * server's first requests, kept doing so for sites whose objects later die young: its young collections
 * took far longer than the other worker's, and read latency at half of peak followed them (the bench
 * report of issue #6 has the figures). Cluster workers inherit it with the rest of the primary's flags.
 */
const V8_FLAGS = ['--no-allocation-site-pretenuring'];

/** The production server's command line after `node` (scripts/serve.ts): `npm start`, the tests and the bench run it. */
export function productionServerArgs(port: number | string, hostname?: string): string[] {
  return [...V8_FLAGS, '--import', 'tsx', SERVE, '-p', String(port), ...(hostname ? ['-H', hostname] : [])];
}
