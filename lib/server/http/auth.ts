import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { clients } from '../db/schema';
import { env } from '../env';
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

export function isOperatorKey(key: string): boolean {
  const operatorKey = env().ESCROW_OPERATOR_KEY;
  if (!operatorKey) return false;
  const a = Buffer.from(hashSecretKey(key));
  const b = Buffer.from(hashSecretKey(operatorKey));
  return timingSafeEqual(a, b);
}

export async function authenticateClient(db: Db, request: Request): Promise<ClientRow> {
  const key = presentedKey(request);
  if (/^pk_(test|live)_/.test(key)) {
    throw new AppError('UNAUTHORIZED', 'A public key cannot call the API: use your secret key.');
  }
  if (isOperatorKey(key)) {
    throw new AppError('UNAUTHORIZED', 'The operator key works only on /v1/operator routes: use a client secret key.');
  }
  const [client] = await db.select().from(clients).where(eq(clients.secretKeyHash, hashSecretKey(key))).limit(1);
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
