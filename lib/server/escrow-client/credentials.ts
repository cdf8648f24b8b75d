import 'server-only';
import { readDashboardClient, type DashboardClientCredentials } from '../app-settings';
import { getDb } from '../db/client';
import { env } from '../env';
import { dashboardEnv } from '../dashboard/config';

export type ApiCredentials = { apiUrl: string; secretKey: string };

export class EscrowClientNotConfigured extends Error {}

/**
 * ESCROW_API_KEY when set; otherwise the demo client's key the app keeps in app_settings (first-start
 * seed), encrypted at rest. Read per call so a key seeded after this process started is found, but never cached in a
 * module the browser could see: this file is server-only.
 */
export async function apiCredentials(): Promise<ApiCredentials> {
  const { apiUrl, ESCROW_API_KEY } = dashboardEnv();
  if (ESCROW_API_KEY) return { apiUrl, secretKey: ESCROW_API_KEY };
  const stored = await readDashboardClient(await getDb());
  if (!stored) {
    throw new EscrowClientNotConfigured('The dashboard has no API key: set ESCROW_API_KEY, or start once with ESCROW_SEED_DEMO=1 to create the demo client.');
  }
  return { apiUrl, secretKey: stored.secret_key };
}

/** The embedded demo client's id, when the dashboard runs on the demo key. */
export async function demoClientCredentials(): Promise<DashboardClientCredentials | undefined> {
  return readDashboardClient(await getDb());
}

/**
 * The operator key (ESCROW_OPERATOR_KEY), for the dispute team's area only: the queue, the evidence of both
 * parties and the verdict are operator routes. Server-only like the client key; undefined when not set.
 */
export function operatorCredentials(): ApiCredentials | undefined {
  const key = env().ESCROW_OPERATOR_KEY;
  return key ? { apiUrl: dashboardEnv().apiUrl, secretKey: key } : undefined;
}
