import 'server-only';
import { eq } from 'drizzle-orm';
import { PURPOSE, secretBox } from '../crypto/secret-box';
import type { DbOrTx } from '../db/client';
import { dashboardClientKeys } from '../db/schema';

/**
 * Each client's secret key as the dashboard holds it (docs/decisions.md §14): written when the operator creates
 * the client and when an admin rolls the key, sealed at rest, opened only to make a call for that client.
 */
export async function storeClientKey(db: DbOrTx, clientId: string, secretKey: string, now: Date): Promise<void> {
  const sealed = secretBox().seal(secretKey, PURPOSE.clientSecretKey);
  await db
    .insert(dashboardClientKeys)
    .values({ clientId, secretKey: sealed, updatedAt: now })
    .onConflictDoUpdate({ target: dashboardClientKeys.clientId, set: { secretKey: sealed, updatedAt: now } });
}

export async function readClientKey(db: DbOrTx, clientId: string): Promise<string | undefined> {
  const [row] = await db.select({ secretKey: dashboardClientKeys.secretKey }).from(dashboardClientKeys).where(eq(dashboardClientKeys.clientId, clientId)).limit(1);
  return row && secretBox().open(row.secretKey, PURPOSE.clientSecretKey);
}

/** Which of these clients the dashboard holds a key for (the operator's list says which can be used). */
export async function clientsWithKeys(db: DbOrTx): Promise<Set<string>> {
  const rows = await db.select({ clientId: dashboardClientKeys.clientId }).from(dashboardClientKeys);
  return new Set(rows.map((row) => row.clientId));
}
