import 'server-only';
import { and, eq, isNotNull, notLike, or } from 'drizzle-orm';
import { claimSetting, readSetting } from '../app-settings';
import type { Db } from '../db/client';
import { dashboardClientKeys, webhookEndpoints } from '../db/schema';
import { isSealed, keySource, PURPOSE, secretBox } from './secret-box';

const KEY_CHECK = 'encryption_key_check';

/** No restart fixes this one: the server stops (startup.ts) instead of replacing the worker. */
export class EncryptionKeyMismatch extends Error {}
const CHECK_TEXT = 'Escrow Desk encryption key check';

/**
 * Every server on one database must hold the same key, or each would fail every delivery signed with a
 * secret another one sealed. The first server to start stores a value sealed with its key; a server
 * whose key does not open it refuses to start, saying why.
 */
export async function assertSameEncryptionKey(db: Db, now: Date): Promise<void> {
  const { from } = keySource();
  const box = secretBox();
  await claimSetting(db, KEY_CHECK, { sealed: box.seal(CHECK_TEXT, PURPOSE.keyCheck), at: now.toISOString() }, now);
  const stored = await readSetting<{ sealed?: string }>(db, KEY_CHECK);
  let opens = false;
  try {
    opens = box.open(stored?.sealed ?? '', PURPOSE.keyCheck) === CHECK_TEXT;
  } catch {
    opens = false;
  }
  if (!opens) {
    throw new EncryptionKeyMismatch(
      `the encryption key (${from}) is not the key this database's secrets are encrypted with. Every server on one database ` +
        'needs the same key: set ESCROW_ENCRYPTION_KEY on each to the key of the first (a server that made its own keeps it in ' +
        'the file encryption-key of its ESCROW_DATA_DIR).',
    );
  }
}

const SEALED_PATTERN = 'enc:v1:%';

/**
 * Seals what was written before secrets were encrypted (idempotent: sealed values are left alone). Each
 * update names the plaintext it replaces, so two servers starting together never seal a value twice.
 */
export async function sealPlaintextSecrets(db: Db): Promise<number> {
  const box = secretBox();
  let sealed = 0;
  const rows = await db
    .select({ id: webhookEndpoints.id, secret: webhookEndpoints.secret, previousSecret: webhookEndpoints.previousSecret })
    .from(webhookEndpoints)
    .where(or(notLike(webhookEndpoints.secret, SEALED_PATTERN), and(isNotNull(webhookEndpoints.previousSecret), notLike(webhookEndpoints.previousSecret, SEALED_PATTERN))));
  for (const row of rows) {
    if (!isSealed(row.secret)) {
      const done = await db
        .update(webhookEndpoints)
        .set({ secret: box.seal(row.secret, PURPOSE.webhookSecret) })
        .where(and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.secret, row.secret)))
        .returning({ id: webhookEndpoints.id });
      sealed += done.length;
    }
    if (row.previousSecret !== null && !isSealed(row.previousSecret)) {
      const done = await db
        .update(webhookEndpoints)
        .set({ previousSecret: box.seal(row.previousSecret, PURPOSE.webhookSecret) })
        .where(and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.previousSecret, row.previousSecret)))
        .returning({ id: webhookEndpoints.id });
      sealed += done.length;
    }
  }
  // A client key moved here from app_settings by migration 0016 is plaintext if it was written before encryption.
  const keys = await db.select().from(dashboardClientKeys).where(notLike(dashboardClientKeys.secretKey, SEALED_PATTERN));
  for (const row of keys) {
    const done = await db
      .update(dashboardClientKeys)
      .set({ secretKey: box.seal(row.secretKey, PURPOSE.clientSecretKey) })
      .where(and(eq(dashboardClientKeys.clientId, row.clientId), eq(dashboardClientKeys.secretKey, row.secretKey)))
      .returning({ clientId: dashboardClientKeys.clientId });
    sealed += done.length;
  }
  return sealed;
}
