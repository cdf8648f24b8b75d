/**
 * The production server: the /v1 API (lib/api, a Hono app) through @hono/node-server, and everything
 * else through Next.js (`next start`'s work, through Next's custom-server API). `npm start`, the test
 * harness and the benchmark all run this; with --api-only (`npm run start:api`) it serves the API alone,
 * without Next, so API servers can be scaled apart from the dashboard.
 *
 * On PostgreSQL it runs as one worker process per core (production-server/workers.ts; ESCROW_WORKERS).
 *
 * Usage: node --no-allocation-site-pretenuring --import ./scripts/production-server/load-typescript.mjs scripts/serve.ts
 *        [-p port] [-H hostname] [--api-only]   (PORT also sets the port; production-server/command.ts says why the flags)
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { loadEnvConfig } from '@next/env';
import { assignClientAddress, trustedProxies } from './production-server/client-address';
import { refuseOversizedBody } from './production-server/body-limits';
import { balanceConnections } from './production-server/connection-balance';
import { SERVING_DIR } from './ensure-build';
import { runWorkers, workerCount } from './production-server/workers';

const ROOT = path.resolve(__dirname, '..');
const API_ONLY = process.argv.includes('--api-only');

function option(flag: string, fallback: string): string {
  const at = process.argv.indexOf(flag);
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback);
}

/** The background worker's scheduling priority (Unix niceness, 0 normal to 19 lowest). */
const BACKGROUND_NICENESS = 10;

const isApiPath = (url: string) => url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?');
const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

type Listener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** Next's dashboard and the rest of the site. */
async function startNext(hostname: string, port: number): Promise<{ handle: Listener; close: () => Promise<void> }> {
  const { default: next } = await import('next');
  const app = next({ dev: false, dir: ROOT, hostname, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  return { handle: (req, res) => void handle(req, res), close: () => app.close() };
}

/** Without Next, whatever is not /v1 is not here. */
function apiOnly(): { handle: Listener; close: () => Promise<void> } {
  const notHere = JSON.stringify({ status: false, message: 'This server answers the API only: see /v1/openapi.json.', code: 'NOT_FOUND' });
  return {
    handle: (_req, res) => void res.writeHead(404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(notHere) }).end(notHere),
    close: async () => {},
  };
}

async function main() {
  const port = Number(option('-p', process.env.PORT ?? '3000'));
  const hostname = option('-H', '0.0.0.0');
  Object.assign(process.env, { NODE_ENV: 'production' });
  // The start-up work (migrations, the data-directory lock, demo data, the background runners), once per
  // process and before the server listens: a worker that cannot start exits before it answers anything,
  // and the primary stops (workers.ts). Next's instrumentation sees it done (instrumentation.ts).
  const { startServerOrExit } = await import('../lib/server/startup');
  const { log } = await import('../lib/server/logger');
  const { loggableError } = await import('../lib/server/log-error');
  // A promise nobody awaited failed (a query on a connection the database dropped, its transaction already rolled
  // back there): say what and where, and go on answering the requests in flight instead of ending with them.
  process.on('unhandledRejection', (reason) => log.error({ msg: 'unhandled rejection', ...loggableError(reason) }));
  await startServerOrExit();
  (globalThis as typeof globalThis & { __escrowStarted?: boolean }).__escrowStarted = true;
  const { stopRunners } = await import('../lib/server/runners');
  const { closeDatabase } = await import('../lib/server/db/client');
  if (process.env.ESCROW_WORKER_ROLE === 'background') return keepRunningInBackground(async () => {
    await stopRunners();
    await closeDatabase();
  });
  const health = await import('../lib/server/health');
  const site = API_ONLY ? apiOnly() : await startNext(hostname, port);
  const { app: api } = await import('../lib/api/app');
  // Next shares this process in `npm start`: the globals it uses stay the engine's own.
  const toApi = getRequestListener(api.fetch, { overrideGlobalObjects: false });
  // The API reads its request URL's origin only where the Host header names no usable host (file URLs).
  const origin = `http://${hostname === '0.0.0.0' ? 'localhost' : hostname}:${port}`;
  // The settings as start-up loaded and checked them (.env included).
  const { env } = await import('../lib/server/env');
  const trust = trustedProxies(env().ESCROW_TRUSTED_PROXIES);
  const server = http.createServer((req, res) => {
    keepShare(req, res);
    // Shutting down: the client opens its next request elsewhere (or on the server that replaces this one).
    if (health.isShuttingDown()) res.setHeader('connection', 'close');
    const url = req.url ?? '/';
    if (HEALTH_PATHS.has(url) && (req.method === 'GET' || req.method === 'HEAD')) return void answerHealth(url, res, health.readiness);
    if (isApiPath(url)) {
      // /v1 reads its bodies through its own limited reader (lib/server/http/body.ts).
      assignClientAddress(req, trust);
      // In absolute form, so a malformed Host header is never the request's URL: it stays a header the API may pass over.
      req.url = `${origin}${url}`;
      return void toApi(req, res);
    }
    if (refuseOversizedBody(req, res)) return;
    assignClientAddress(req, trust);
    site.handle(req, res);
  });
  const keepShare = balanceConnections(server);
  // An idle keep-alive connection is kept 65 s, not Node's 5: load balancers keep theirs for 60 s, and a
  // server that closes first races the client reusing it (a reset, a proxy's 502). headersTimeout runs only
  // while a request's headers arrive, so it does not cut an idle connection short.
  server.keepAliveTimeout = 65_000;
  // Next logs an uncaught exception and lets the process end with 0: a server that cannot listen (the port
  // taken) must say so and exit non-zero, for whatever started it.
  const listenUrl = `http://${hostname}:${port}`;
  server.once('error', (error) => {
    log.error({ msg: 'could not listen', url: listenUrl, error: String(error) });
    process.exit(1);
  });
  server.listen(port, hostname, () =>
    log.info({ msg: 'listening', url: listenUrl, ...(API_ONLY ? { serves: 'api' } : {}) }),
  );
  const shutDown = async (signal: string) => {
    const { ESCROW_SHUTDOWN_DELAY_MS: delay, ESCROW_SHUTDOWN_GRACE_MS: grace } = env();
    health.markShuttingDown();
    log.info({ msg: 'shutting down', signal, requests_in_flight: inFlight, ready_503_for_ms: delay, grace_ms: grace });
    // /readyz answers 503 for a while before the port closes, so the balancer stops sending first.
    if (delay > 0) await sleep(delay);
    // No new connections; idle kept-alive ones close now, busy ones once they answer (connection: close).
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (!(await settledWithin(closed, grace))) {
      log.warn({ msg: 'requests still unanswered at the end of the grace period: closing their connections', requests_in_flight: inFlight });
      server.closeAllConnections();
    }
    // The runners finish the pass they are in (each stop waits for it), within the same bound again.
    if (!(await settledWithin(Promise.all([site.close(), stopRunners()]), grace))) log.warn({ msg: 'a background runner did not finish its pass in time' });
    await settledWithin(closeDatabase(), grace);
    log.info({ msg: 'stopped' });
    process.exit(0);
  };
  let inFlight = 0;
  server.on('request', (_req, res) => {
    inFlight++;
    res.once('close', () => inFlight--);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void shutDown(signal));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whether the work settled (either way) within the bound. */
async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true, () => true), bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** /healthz: the process answers. /readyz: it should be sent requests (lib/server/health.ts). No data in either. */
function answerHealth(url: string, res: http.ServerResponse, readiness: () => Promise<{ ready: boolean; reason?: string }>): void {
  const send = (status: number, body: object) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' }).end(text);
  };
  if (url === '/healthz') return send(200, { status: 'alive' });
  void readiness().then((answer) => (answer.ready ? send(200, { status: 'ready' }) : send(503, { status: 'not ready', reason: answer.reason })));
}

/**
 * The background worker answers no request (workers.ts): it lives for its runners (lib/server/runners.ts),
 * whose timers do not keep a process alive by themselves, until the primary stops it.
 */
function keepRunningInBackground(stop: () => Promise<void>) {
  // Its work can wait a moment; a request should not wait for it on a busy machine.
  os.setPriority(BACKGROUND_NICENESS);
  const alive = setInterval(() => undefined, 60_000);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      clearInterval(alive);
      void stop().finally(() => process.exit(0));
    });
  }
}

/** While it runs, the server marks the build it serves as in use, so no start of this checkout rebuilds under it. */
function markServing(): void {
  const mark = path.join(SERVING_DIR, String(process.pid));
  fs.mkdirSync(SERVING_DIR, { recursive: true });
  fs.writeFileSync(mark, '');
  process.on('exit', () => fs.rmSync(mark, { force: true }));
}

function start() {
  if (cluster.isPrimary) {
    if (!API_ONLY) markServing();
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
