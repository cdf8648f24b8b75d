import 'server-only';
import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { RollKeyBody } from '@/lib/contracts/keys';
import type { Db, DbOrTx } from '../db/client';
import { apiKeys, clients, type ClientRow } from '../db/schema';
import { hashSecretKey } from '../crypto/key-hash';
import { changeClient } from '../client-cache';
import { iso, isoOrNull } from '../records/iso';

type KeyRow = typeof apiKeys.$inferSelect;

/** Expired keys stay listed (and answered as expired rather than unknown) this long. */
const EXPIRED_KEPT_MS = 30 * 86_400_000;

/** A new secret key for a client: the key itself, to be shown once, and its row, which holds only its hash (docs/decisions.md §2). */
export async function issueSecretKey(db: DbOrTx, client: { id: string; mode: 'test' | 'live' }, now: Date): Promise<{ secretKey: string; row: KeyRow }> {
  const secretKey = `sk_${client.mode}_${randomBytes(24).toString('base64url')}`;
  const [row] = await db
    .insert(apiKeys)
    .values({ id: randomUUID(), clientId: client.id, keyHash: hashSecretKey(secretKey), last4: secretKey.slice(-4), createdAt: now, expiresAt: null })
    .returning();
  if (!row) throw new Error('key insert returned nothing');
  return { secretKey, row };
}

function keyRecord(row: KeyRow, now: Date) {
  return {
    id: row.id,
    last4: row.last4,
    created_at: iso(row.createdAt),
    expires_at: isoOrNull(row.expiresAt),
    expired: row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime(),
  };
}

/**
 * Rolls the client's secret key (docs/decisions.md §14, as Stripe's roll): a new key, and every key that works
 * now works only until `expires_in_hours` from now (0: not at all), so after a leak one roll leaves
 * only the new key. Every server refuses a revoked key once this answers (client-cache.ts).
 */
export async function rollSecretKey(db: Db, client: { id: string; mode: 'test' | 'live' }, body: RollKeyBody, now: Date) {
  const until = new Date(now.getTime() + body.expires_in_hours * 3_600_000);
  return changeClient(db, client.id, async (tx) => {
    // Two rolls at once would each leave the other's new key without an expiry.
    await tx.execute(sql`select id from ${clients} where id = ${client.id} for update`);
    await tx
      .update(apiKeys)
      .set({ expiresAt: until })
      .where(and(eq(apiKeys.clientId, client.id), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, until))));
    await tx.delete(apiKeys).where(and(eq(apiKeys.clientId, client.id), lt(apiKeys.expiresAt, new Date(now.getTime() - EXPIRED_KEPT_MS))));
    const { secretKey, row } = await issueSecretKey(tx, client, now);
    return { ...keyRecord(row, now), secret_key: secretKey, previous_keys_expire_at: iso(until) };
  });
}

/** The client's keys, newest first: last 4 characters and times, never a secret (only hashes are stored). */
export async function listSecretKeys(db: Db, client: Pick<ClientRow, 'id' | 'publicKey' | 'mode'>, now: Date) {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.clientId, client.id)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return { client_id: client.id, public_key: client.publicKey, mode: client.mode, keys: rows.map((row) => keyRecord(row, now)) };
}
