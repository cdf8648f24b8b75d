/**
 * The ceilings for GET milestone and for the escrow lifecycle (bench/scenarios.ts): a bare node:http server
 * on a postgres.js pool that answers the same paths by calling the app's own queries and services (the same
 * SQL, locks and one-statement writes) on the app's own client settings, with nothing else: no Next.js, no
 * Hono, no zod, no middleware (no idempotency, no rate limiter, no request log). A body is JSON.parse'd and
 * handed to the service as it came; the key is looked up on every request.
 *
 * Run with `node --conditions=react-server --import tsx bench/bare-server.ts` (server-only modules
 * resolve to nothing under that condition). Env: DATABASE_URL, POOL_SIZE (in all), WORKERS (1: one
 * process; more: a node:cluster primary and that many workers sharing the port and the pool size).
 */
import cluster from 'node:cluster';
import http from 'node:http';
import { drizzle } from 'drizzle-orm/postgres-js';
import * as schema from '../lib/server/db/schema';
import { postgresClient, type Db } from '../lib/server/db/client';
import type { ClientRow } from '../lib/server/db/schema';
import { hashSecretKey } from '../lib/server/crypto/key-hash';
import { AppError } from '../lib/server/app-error';
import { findKeyOwner } from '../lib/api/middleware/auth';
import { approveDelivery } from '../lib/server/services/approve-delivery';
import { deliverMilestone } from '../lib/server/services/deliver-milestone';
import { fundMilestone } from '../lib/server/services/fund-milestone';
import { getMilestone, presentMilestone } from '../lib/server/services/milestones';
import { createTransaction } from '../lib/server/services/transactions';

const WORKERS = Math.max(1, Number(process.env.WORKERS ?? 1));
const POOL_SIZE = Number(process.env.POOL_SIZE ?? 10);

/** What a request hands its service: the owner's client, the client's clock, the body as parsed, the path's id. */
type Call = { db: Db; client: ClientRow; now: Date; body: any; id: string; baseUrl: string };
type Route = { method: string; path: RegExp; answer: (call: Call) => Promise<{ message: string; data: unknown }> };

const ID = '([0-9a-f-]{36})';
const ROUTES: Route[] = [
  { method: 'GET', path: new RegExp(`^/v1/milestones/${ID}$`, 'i'), answer: async (c) => ({ message: 'Milestone retrieved successfully', data: await getMilestone(c.db, c.client, c.id) }) },
  { method: 'POST', path: /^\/v1\/transactions$/, answer: async (c) => ({ message: 'Transaction created successfully', data: await createTransaction(c.db, c.client, c.body, c.now, c.baseUrl) }) },
  {
    method: 'POST',
    path: new RegExp(`^/v1/milestones/${ID}/fund$`, 'i'),
    answer: async (c) => ({ message: 'Milestone funded successfully', data: presentMilestone(await fundMilestone(c.db, c.client, c.id, c.body.buyer_id, c.now, c.body.acted_by ?? 'buyer'), c.id) }),
  },
  {
    method: 'POST',
    path: new RegExp(`^/v1/milestones/${ID}/deliver$`, 'i'),
    answer: async (c) => ({ message: 'Milestone delivered successfully; it is now under inspection', data: presentMilestone(await deliverMilestone(c.db, c.client, c.id, c.body, c.now, c.baseUrl), c.id) }),
  },
  {
    method: 'POST',
    path: new RegExp(`^/v1/milestones/${ID}/approve$`, 'i'),
    answer: async (c) => ({ message: 'Delivery accepted; funds released to the seller', data: presentMilestone(await approveDelivery(c.db, c.client, c.id, c.body.buyer_id, c.now), c.id) }),
  },
];

function send(res: http.ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function serve() {
  // The app's own connection behaviour too: connections kept open, each statement prepared once per connection.
  const client = postgresClient(process.env.DATABASE_URL!, { max: Math.max(1, Math.ceil(POOL_SIZE / WORKERS)), idle_timeout: 0, max_lifetime: null });
  const db = drizzle(client, { schema }) as unknown as Db;
  const server = http.createServer(async (req, res) => {
    let match: RegExpExecArray | null = null;
    const route = ROUTES.find((r) => r.method === req.method && (match = r.path.exec(req.url ?? '')));
    if (!route || !match) return send(res, 404, { status: false, code: 'NOT_FOUND', message: 'Only GET milestone and the escrow lifecycle here.' });
    try {
      const text = req.method === 'GET' ? '' : await readBody(req);
      const key = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '').trim();
      const owner = await findKeyOwner(db, hashSecretKey(key));
      if (!owner || (owner.keyExpiresAt && owner.keyExpiresAt.getTime() <= Date.now())) return send(res, 401, { status: false, code: 'UNAUTHORIZED', message: 'Unknown API key.' });
      const id = ((match as RegExpExecArray)[1] ?? '').toLowerCase();
      const call: Call = { db, client: owner.client, now: new Date(Date.now() + owner.client.clockOffsetMs), body: text ? JSON.parse(text) : undefined, id, baseUrl: `http://${req.headers.host}` };
      const { message, data } = await route.answer(call);
      send(res, 200, { status: true, message, data });
    } catch (error) {
      if (error instanceof AppError) return send(res, error.status, { status: false, code: error.code, message: error.message });
      send(res, 500, { status: false, code: 'INTERNAL', message: (error as Error).message });
    }
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    if (WORKERS === 1) console.log(`bare server listening on ${(server.address() as { port: number }).port}`);
  });
  process.on('SIGTERM', () => server.close(() => client.end().then(() => process.exit(0))));
}

if (WORKERS > 1 && cluster.isPrimary) {
  // Workers listening on port 0 share one port the primary chose; it is announced once all of them listen.
  let listening = 0;
  cluster.on('listening', (_worker, address) => {
    if (++listening === WORKERS) console.log(`bare server listening on ${address.port} (${WORKERS} workers)`);
  });
  for (let i = 0; i < WORKERS; i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    cluster.disconnect(() => process.exit(0));
  });
} else {
  serve();
}
