import path from 'node:path';

const SERVE = path.resolve(__dirname, '../serve.ts');

/** The production server's command line after `node` (scripts/serve.ts): `npm start`, the tests and the bench run it. */
export function productionServerArgs(port: number | string, hostname?: string): string[] {
  return ['--import', 'tsx', SERVE, '-p', String(port), ...(hostname ? ['-H', hostname] : [])];
}
