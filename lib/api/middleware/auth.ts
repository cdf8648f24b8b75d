import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { getDb, type Db } from '@/lib/server/db/client';
import { apiKeys, clients, type ClientRow } from '@/lib/server/db/schema';
import { hashSecretKey } from '@/lib/server/crypto/key-hash';
import { env } from '@/lib/server/env';
import { AppError } from '@/lib/server/app-error';
import { cacheGeneration, cachedKeyOwner, rememberKeyOwner, type KeyOwner } from '@/lib/server/client-cache';
import { clientAddressOf } from '@/lib/server/http/client-address';
import { OPERATOR_SCOPE, type ApiEnv } from '../env';
import { countFailedAuthentication, refuseAddressOverFailures, takeToken } from './rate-limit';

/** The spec's examples send the key raw; `Bearer <key>` is accepted too (docs/decisions.md §2). */
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

/** The client a secret key belongs to, and when that key expires (null: never); undefined for an unknown key. */
export async function findKeyOwner(db: Db, keyHash: string): Promise<KeyOwner | undefined> {
  const [row] = await db
    .select({ client: clients, keyExpiresAt: apiKeys.expiresAt })
    .from(apiKeys)
    .innerJoin(clients, eq(clients.id, apiKeys.clientId))
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1)
    .prepare('key_owner')
    .execute();
  return row;
}

async function keyOwnerOf(db: Db, keyHash: string, nowMs: number): Promise<KeyOwner | undefined> {
  const cached = cachedKeyOwner(keyHash, nowMs);
  if (cached) return cached;
  const generation = cacheGeneration();
  const owner = await findKeyOwner(db, keyHash);
  if (owner) rememberKeyOwner(keyHash, owner, generation, nowMs);
  return owner;
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
  // Keys expire in real time: a sandbox's test clock does not move them.
  const nowMs = Date.now();
  const owner = await keyOwnerOf(db, keyHash, nowMs);
  if (!owner) throw new AppError('UNAUTHORIZED', 'Unknown API key.');
  if (owner.keyExpiresAt && owner.keyExpiresAt.getTime() <= nowMs) {
    throw new AppError('UNAUTHORIZED', `This API key expired at ${owner.keyExpiresAt.toISOString()}: use the key that replaced it.`);
  }
  return owner.client;
}

export function authenticateOperator(request: Request): void {
  if (!env().ESCROW_OPERATOR_KEY) {
    throw new AppError('UNAUTHORIZED', 'The operator API is disabled: ESCROW_OPERATOR_KEY is not set on this server.');
  }
  if (!isOperatorKey(presentedKey(request))) {
    throw new AppError('UNAUTHORIZED', 'This route needs the operator key.');
  }
}

/**
 * Before anything else of an operation: an address over its failed-authentication limit is refused, the
 * key is checked (a missing or unknown one counts against the address), then the caller's rate limit.
 */
function authenticated(authenticate: (db: Db, request: Request) => Promise<{ scopeId: string; client?: ClientRow }>): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const db = await getDb();
    const address = clientAddressOf(c.req.raw.headers);
    await refuseAddressOverFailures(db, address);
    const { scopeId, client } = await authenticate(db, c.req.raw).catch(async (error: unknown) => {
      if (error instanceof AppError && error.code === 'UNAUTHORIZED') await countFailedAuthentication(db, address);
      throw error;
    });
    c.set('scopeId', scopeId);
    c.set('db', db);
    if (client) c.set('client', client);
    await takeToken(db, scopeId);
    // A sandbox client's test clock runs ahead of the wall clock (docs/decisions.md §10).
    c.set('now', new Date(Date.now() + (client?.clockOffsetMs ?? 0)));
    await next();
  };
}

/** Every client operation: the secret key is checked and the client loaded before the handler runs. */
export const clientAuth = authenticated(async (db, request) => {
  const client = await authenticateClient(db, request);
  return { scopeId: client.id, client };
});

export const operatorAuth = authenticated(async (_db, request) => {
  authenticateOperator(request);
  return { scopeId: OPERATOR_SCOPE };
});
