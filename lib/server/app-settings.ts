import 'server-only';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from './db/client';
import { appSettings } from './db/schema';

/** The demo client (seeded on first start): its id and public key; its secret key is in dashboard/client-keys.ts like any client's. */
export type DemoClient = { client_id: string; public_key: string };

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

export async function claimDemoClient(db: DbOrTx, demo: DemoClient, now: Date): Promise<boolean> {
  return claimSetting(db, DASHBOARD_CLIENT, demo, now);
}

export async function readDemoClient(db: DbOrTx): Promise<DemoClient | undefined> {
  const stored = await readSetting<DemoClient>(db, DASHBOARD_CLIENT);
  return stored && { client_id: stored.client_id, public_key: stored.public_key };
}
