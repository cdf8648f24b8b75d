import 'server-only';
import { eq } from 'drizzle-orm';
import { PURPOSE, secretBox } from './crypto/secret-box';
import type { DbOrTx } from './db/client';
import { appSettings } from './db/schema';

export type DashboardClientCredentials = { client_id: string; secret_key: string; public_key: string };

export const DASHBOARD_CLIENT = 'dashboard_client';
export const DEMO_SEEDED = 'demo_seeded';

export async function readSetting<T>(db: DbOrTx, key: string): Promise<T | undefined> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key)).limit(1);
  return row?.value as T | undefined;
}

/** Writes the setting only if it is absent; true when this call wrote it (so exactly one process wins). */
export async function claimSetting(db: DbOrTx, key: string, value: unknown, now: Date): Promise<boolean> {
  const inserted = await db.insert(appSettings).values({ key, value, updatedAt: now }).onConflictDoNothing().returning({ key: appSettings.key });
  return inserted.length === 1;
}

/** The demo client's keys the dashboard acts with; the secret key is kept encrypted (crypto/secret-box.ts). */
export async function claimDashboardClient(db: DbOrTx, credentials: DashboardClientCredentials, now: Date): Promise<boolean> {
  return claimSetting(db, DASHBOARD_CLIENT, { ...credentials, secret_key: secretBox().seal(credentials.secret_key, PURPOSE.clientSecretKey) }, now);
}

export async function readDashboardClient(db: DbOrTx): Promise<DashboardClientCredentials | undefined> {
  const stored = await readSetting<DashboardClientCredentials>(db, DASHBOARD_CLIENT);
  return stored && { ...stored, secret_key: secretBox().open(stored.secret_key, PURPOSE.clientSecretKey) };
}

/**
 * The demo client's secret key after the dashboard rolled it: stored sealed in place of the old one, so
 * every later call acts with the new key before the old one expires.
 */
export async function replaceDashboardClientSecret(db: DbOrTx, secretKey: string, now: Date): Promise<void> {
  const stored = await readSetting<DashboardClientCredentials>(db, DASHBOARD_CLIENT);
  if (!stored) throw new Error('the dashboard has no stored client key to replace');
  const value = { ...stored, secret_key: secretBox().seal(secretKey, PURPOSE.clientSecretKey) };
  await db.update(appSettings).set({ value, updatedAt: now }).where(eq(appSettings.key, DASHBOARD_CLIENT));
}
