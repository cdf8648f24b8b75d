/**
 * The ceiling for GET /v1/milestones/{id}: a bare node:http server on a postgres.js pool that runs the
 * same queries (the app's own drizzle queries on the app's own client settings: key lookup, then
 * getMilestone) and answers the same JSON, with nothing else: no Next.js, no request wrapper, no rate
 * limiter, no request log.
 *
 * Run with `node --conditions=react-server --import tsx bench/bare-server.ts` (server-only modules
 * resolve to nothing under that condition). Env: DATABASE_URL, PORT, POOL_SIZE.
 */
import http from 'node:http';
import { drizzle } from 'drizzle-orm/postgres-js';
import * as schema from '../lib/server/db/schema';
import { postgresClient, type Db } from '../lib/server/db/client';
import { hashSecretKey } from '../lib/server/crypto/key-hash';
import { findKeyOwner } from '../lib/api/middleware/auth';
import { getMilestone } from '../lib/server/services/milestones';

// The app's own connection behaviour too: connections kept open, each statement prepared once per connection.
const client = postgresClient(process.env.DATABASE_URL!, { max: Number(process.env.POOL_SIZE ?? 10), idle_timeout: 0, max_lifetime: null });
const db = drizzle(client, { schema }) as unknown as Db;
const ROUTE = /^\/v1\/milestones\/([0-9a-f-]{36})$/i;

function send(res: http.ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

const server = http.createServer(async (req, res) => {
  const match = req.method === 'GET' ? ROUTE.exec(req.url ?? '') : null;
  if (!match) return send(res, 404, { status: false, code: 'NOT_FOUND', message: 'Only GET /v1/milestones/{id} here.' });
  try {
    const key = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '').trim();
    const owner = await findKeyOwner(db, hashSecretKey(key));
    if (!owner || (owner.keyExpiresAt && owner.keyExpiresAt.getTime() <= Date.now())) return send(res, 401, { status: false, code: 'UNAUTHORIZED', message: 'Unknown API key.' });
    const data = await getMilestone(db, owner.client, match[1]!.toLowerCase());
    send(res, 200, { status: true, message: 'Milestone retrieved successfully', data });
  } catch (error) {
    send(res, 500, { status: false, code: 'INTERNAL', message: (error as Error).message });
  }
});

server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address() as { port: number };
  console.log(`bare server listening on ${address.port}`);
});
process.on('SIGTERM', () => server.close(() => client.end().then(() => process.exit(0))));
