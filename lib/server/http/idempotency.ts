import 'server-only';
import { createHash } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { AppError } from '../app-error';
import { readBodyBytes } from './body';
import { replayBodyOf } from './shown-once';
import { queryRows } from '../db/rows';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;

export function idempotencyKeyOf(request: Request): string | undefined {
  if (request.method !== 'POST' && request.method !== 'PATCH') return undefined;
  const key = request.headers.get('idempotency-key');
  if (key === null) return undefined;
  if (!KEY_PATTERN.test(key)) {
    throw new AppError('VALIDATION_ERROR', 'Idempotency-Key must be 1 to 255 visible ASCII characters.', [
      { field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' },
    ]);
  }
  return key;
}

/**
 * The IETF Idempotency-Key draft (decisions §10): the same key and request within 24 h replays the
 * first success without acting again; the same key with another request is 422; a second request
 * while the first is still running is 409. The key is recorded in the same database transaction as
 * the effect, so a crash keeps both or neither. A failed request changed nothing and records nothing:
 * its key may be retried once the cause is fixed (a wallet topped up, a field corrected).
 */
export async function runIdempotently(
  db: Db,
  a: { scopeId: string; key: string; request: Request; now: Date; run: (db: Db, request: Request) => Promise<Response> },
): Promise<Response> {
  const body = await readBodyBytes(a.request);
  const url = new URL(a.request.url);
  const fingerprint = createHash('sha256')
    .update(`${a.request.method} ${url.pathname}${url.search}\n`)
    .update(body)
    .digest('hex');
  const fresh = new Request(a.request.url, { method: a.request.method, headers: a.request.headers, body: new Uint8Array(body) });

  return db.transaction(async (tx) => {
    // A transaction-scoped advisory lock on (client, key): a concurrent twin is told to wait (409)
    // instead of queueing behind the first and doing the work again.
    const [lock] = await queryRows<{ locked: boolean }>(tx, sql`select pg_try_advisory_xact_lock(hashtextextended(${`${a.scopeId}:${a.key}`}, 0)) as locked`);
    if (!lock?.locked) {
      throw new AppError('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed: retry once it has finished.');
    }
    const [previous] = await tx
      .select()
      .from(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.scopeId, a.scopeId),
          eq(idempotencyKeys.key, a.key),
          gt(idempotencyKeys.createdAt, new Date(a.now.getTime() - REPLAY_WINDOW_MS)),
        ),
      );
    if (previous) {
      if (previous.fingerprint !== fingerprint) {
        throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request: use a new key for a new request.');
      }
      return new Response(previous.responseBody, {
        status: previous.responseStatus,
        headers: { 'content-type': 'application/json', 'idempotent-replayed': 'true' },
      });
    }
    const response = await a.run(tx as unknown as Db, fresh);
    const responseBody = await response.text();
    // A secret in the answer goes to this caller only, never into the table (shown-once.ts).
    const replayBody = replayBodyOf(response, responseBody);
    await tx
      .insert(idempotencyKeys)
      .values({ scopeId: a.scopeId, key: a.key, fingerprint, responseStatus: response.status, responseBody: replayBody, createdAt: a.now })
      .onConflictDoUpdate({
        target: [idempotencyKeys.scopeId, idempotencyKeys.key],
        set: { fingerprint, responseStatus: response.status, responseBody: replayBody, createdAt: a.now },
      });
    return new Response(responseBody, { status: response.status, headers: response.headers });
  });
}
