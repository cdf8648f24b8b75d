import 'server-only';
import { createHash } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import type { Db } from '@/lib/server/db/client';
import { idempotencyKeys } from '@/lib/server/db/schema';
import { queryRows } from '@/lib/server/db/rows';
import { AppError } from '@/lib/server/app-error';
import type { ApiEnv } from '../env';
import { bodyBytes } from './body';

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

/** Thrown out of the transaction to undo what a failed request wrote; its error answer is already made. */
class Failed extends Error {}

/**
 * The IETF Idempotency-Key draft (docs/decisions.md §10): the same key and request within 24 h replays the
 * first success without acting again; the same key with another request is 422; a second request
 * while the first is still running is 409. The key is recorded in the same database transaction as
 * the effect (the operation runs inside it), so a crash keeps both or neither. A failed request changed
 * nothing and records nothing: its key may be retried once the cause is fixed (a wallet topped up, a
 * field corrected).
 */
export const idempotency: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const key = idempotencyKeyOf(c.req.raw);
  if (!key) return next();
  const scopeId = c.var.scopeId!;
  const now = c.var.now;
  const url = new URL(c.req.url);
  const fingerprint = createHash('sha256')
    .update(`${c.req.method} ${url.pathname}${url.search}\n`)
    .update(await bodyBytes(c))
    .digest('hex');

  let replay: Response | undefined;
  try {
    await c.var.db.transaction(async (tx) => {
      // A transaction-scoped advisory lock on (client, key): a concurrent twin is told to wait (409)
      // instead of queueing behind the first and doing the work again.
      const [lock] = await queryRows<{ locked: boolean }>(tx, sql`select pg_try_advisory_xact_lock(hashtextextended(${`${scopeId}:${key}`}, 0)) as locked`);
      if (!lock?.locked) {
        throw new AppError('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed: retry once it has finished.');
      }
      const [previous] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.scopeId, scopeId), eq(idempotencyKeys.key, key), gt(idempotencyKeys.createdAt, new Date(now.getTime() - REPLAY_WINDOW_MS))));
      if (previous) {
        if (previous.fingerprint !== fingerprint) {
          throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request: use a new key for a new request.');
        }
        replay = new Response(previous.responseBody, {
          status: previous.responseStatus,
          headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(previous.responseBody)), 'idempotent-replayed': 'true' },
        });
        return;
      }
      c.set('db', tx as unknown as Db);
      await next();
      // The operation failed: its answer stands, and nothing it wrote is kept.
      if (c.error) throw new Failed();
      const responseBody = await c.res.text();
      // A secret in the answer goes to this caller only, never into the table (shown-once.ts).
      const replayBody = c.var.replayBody ?? responseBody;
      await tx
        .insert(idempotencyKeys)
        .values({ scopeId, key, fingerprint, responseStatus: c.res.status, responseBody: replayBody, createdAt: now })
        .onConflictDoUpdate({
          target: [idempotencyKeys.scopeId, idempotencyKeys.key],
          set: { fingerprint, responseStatus: c.res.status, responseBody: replayBody, createdAt: now },
        });
      c.res = new Response(responseBody, c.res);
    });
  } catch (error) {
    if (!(error instanceof Failed)) throw error;
  }
  if (replay) return replay;
};
