/**
 * The production server: Next.js (`next start`'s work, through Next's custom-server API), with /v1
 * requests handed straight to their route handlers (production-server/api-fast-path.ts says why).
 * `npm start`, the test harness and the benchmark all run this.
 *
 * On PostgreSQL it runs as one worker process per core (production-server/workers.ts; ESCROW_WORKERS).
 *
 * Usage: node --no-allocation-site-pretenuring --import tsx scripts/serve.ts [-p port] [-H hostname]   (PORT also sets
 * the port; production-server/command.ts says why the flag)
 */
// First: it keeps the engine's Date before Next's server replaces it.
import { restoreEngineDate } from './production-server/native-date';
import cluster from 'node:cluster';
import http from 'node:http';
import path from 'node:path';
import { loadEnvConfig } from '@next/env';
import next from 'next';
import { createApiFastPath } from './production-server/api-fast-path';
import { loadApiRouteTable } from './production-server/api-routes';
import { assignClientAddress, trustedProxies } from './production-server/client-address';
import { refuseOversizedBody } from './production-server/body-limits';
import { runWorkers, workerCount } from './production-server/workers';

const ROOT = path.resolve(__dirname, '..');

function option(flag: string, fallback: string): string {
  const at = process.argv.indexOf(flag);
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback);
}

async function main() {
  const port = Number(option('-p', process.env.PORT ?? '3000'));
  const hostname = option('-H', '0.0.0.0');
  Object.assign(process.env, { NODE_ENV: 'production' });
  const app = next({ dev: false, dir: ROOT, hostname, port });
  const handle = app.getRequestHandler();
  // Runs instrumentation too: migrations, the data-directory lock, demo data, the background runners.
  await app.prepare();
  restoreEngineDate();
  const api = createApiFastPath(await loadApiRouteTable(ROOT), `http://${hostname === '0.0.0.0' ? 'localhost' : hostname}:${port}`);
  // Read after prepare(), which has loaded .env; lib/server/env.ts validates the same setting.
  const trust = trustedProxies(process.env.ESCROW_TRUSTED_PROXIES);
  const server = http.createServer((req, res) => {
    if (refuseOversizedBody(req, res)) return;
    assignClientAddress(req, trust);
    if (!api(req, res)) void handle(req, res);
  });
  // An idle keep-alive connection is kept 65 s, not Node's 5: load balancers keep theirs for 60 s, and a
  // server that closes first races the client reusing it (a reset, a proxy's 502). At 5 s the bench's own
  // driver lost that race twice in 3,600 requests, on sockets a stall had left idle. (headersTimeout, 60 s,
  // runs only while a request's headers arrive: a connection left idle 62 s was still reused here.)
  server.keepAliveTimeout = 65_000;
  server.listen(port, hostname, () => console.log(JSON.stringify({ level: 'info', msg: 'listening', url: `http://${hostname}:${port}` })));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.close();
      void app.close().finally(() => process.exit(0));
      setTimeout(() => process.exit(0), 5000).unref();
    });
  }
}

function start() {
  if (cluster.isPrimary) {
    // What Next would load in each worker, read here first: DATABASE_URL in .env decides the worker count.
    loadEnvConfig(ROOT);
    const count = workerCount(process.env);
    if (count > 1) return runWorkers(count);
  } else {
    // The primary went away without stopping us (SIGKILL): no one is left to replace a worker.
    process.on('disconnect', () => process.exit(0));
  }
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

try {
  start();
} catch (error) {
  console.error(`\nEscrow Desk could not start: ${(error as Error).message}\n`);
  process.exit(1);
}
