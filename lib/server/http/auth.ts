import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { clients } from '../db/schema';
import { env } from '../env';
import { broadcast, onBroadcast } from '../worker-broadcast';
import { AppError } from './app-error';

export type ClientRow = typeof clients.$inferSelect;

export function hashSecretKey(secretKey: string): string {
  return createHash('sha256').update(secretKey).digest('hex');
}

/** The spec's examples send the key raw; `Bearer <key>` is accepted too (decisions §2). */
export function presentedKey(request: Request): string {
  const header = request.headers.get('authorization')?.trim();
  if (!header) {
    throw new AppError('UNAUTHORIZED', 'Missing Authorization header: send your secret key (sk_test_… or sk_live_…).');
  }
  return header.replace(/^Bearer\s+/i, '').trim();
}

let operatorKeyHash: { key: string; hash: Buffer } | undefined;

/** Compares hashes (fixed length, constant time); the operator key's own hash is computed once. */
function isOperatorKeyHash(keyHash: string): boolean {
  const operatorKey = env().ESCROW_OPERATOR_KEY;
  if (!operatorKey) return false;
  if (operatorKeyHash?.key !== operatorKey) operatorKeyHash = { key: operatorKey, hash: Buffer.from(hashSecretKey(operatorKey)) };
  return timingSafeEqual(Buffer.from(keyHash), operatorKeyHash.hash);
}

export function isOperatorKey(key: string): boolean {
  return isOperatorKeyHash(hashSecretKey(key));
}

/**
 * Clients by key hash, for a moment: every request names its key, and the lookup was one query in four
 * of a GET milestone. Keys are never revoked or re-issued in place, and a client's settings do not change
 * through the API, except a sandbox's test clock: advancing it forgets the entry in every worker process
 * of this server before it answers (forgetClientEverywhere); other servers on the same database see the
 * new clock within CLIENT_CACHE_MS.
 */
const CLIENT_CACHE_MS = 2000;
const CLIENT_CACHE_LIMIT = 10_000;
// On globalThis: route handlers can be bundled apart, and the test clock's route must clear every route's view.
const holder = globalThis as typeof globalThis & { __escrowClientsByKeyHash?: Map<string, { client: ClientRow; until: number }> };
const clientsByKeyHash = (holder.__escrowClientsByKeyHash ??= new Map());
const FORGET_CLIENT = 'forget-client';

function forgetClient(clientId: string): void {
  for (const [hash, entry] of clientsByKeyHash) if (entry.client.id === clientId) clientsByKeyHash.delete(hash);
}

/** At start: forget a client when another worker process says its settings changed. */
export function listenForForgottenClients(): void {
  onBroadcast(FORGET_CLIENT, (clientId) => forgetClient(String(clientId)));
}

/** After a client's row changes: no worker of this server answers with the old row once this resolves. */
export async function forgetClientEverywhere(clientId: string): Promise<void> {
  forgetClient(clientId);
  // A worker that does not answer within the cache's lifetime holds no entry older than the change.
  await broadcast(FORGET_CLIENT, clientId, CLIENT_CACHE_MS);
}

async function clientOfKeyHash(db: Db, keyHash: string): Promise<ClientRow | undefined> {
  const now = Date.now();
  const cached = clientsByKeyHash.get(keyHash);
  if (cached && cached.until > now) return cached.client;
  const [client] = await db.select().from(clients).where(eq(clients.secretKeyHash, keyHash)).limit(1);
  if (client) {
    if (clientsByKeyHash.size >= CLIENT_CACHE_LIMIT) clientsByKeyHash.clear();
    clientsByKeyHash.set(keyHash, { client, until: now + CLIENT_CACHE_MS });
  }
  return client;
}

export async function authenticateClient(db: Db, request: Request): Promise<ClientRow> {
  const key = presentedKey(request);
  if (/^pk_(test|live)_/.test(key)) {
    throw new AppError('UNAUTHORIZED', 'A public key cannot call the API: use your secret key.');
  }
  const keyHash = hashSecretKey(key);
  if (isOperatorKeyHash(keyHash)) {
    throw new AppError('UNAUTHORIZED', 'The operator key works only on /v1/operator routes: use a client secret key.');
  }
  const client = await clientOfKeyHash(db, keyHash);
  if (!client) throw new AppError('UNAUTHORIZED', 'Unknown API key.');
  return client;
}

export function authenticateOperator(request: Request): void {
  if (!env().ESCROW_OPERATOR_KEY) {
    throw new AppError('UNAUTHORIZED', 'The operator API is disabled: ESCROW_OPERATOR_KEY is not set on this server.');
  }
  if (!isOperatorKey(presentedKey(request))) {
    throw new AppError('UNAUTHORIZED', 'This route needs the operator key.');
  }
}
