import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { apiKeys, clients, type ClientRow } from '../db/schema';
import { hashSecretKey } from '../crypto/key-hash';
import { env } from '../env';
import { AppError } from '../app-error';
import { cacheGeneration, cachedKeyOwner, rememberKeyOwner, type KeyOwner } from '../client-cache';

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
