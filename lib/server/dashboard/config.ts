import 'server-only';
import { env, type Env } from '../env';

export type DashboardEnv = Pick<Env, 'NEXTAUTH_SECRET' | 'NEXTAUTH_URL' | 'ESCROW_API_URL' | 'ESCROW_API_KEY'> & { apiUrl: string };

let cached: DashboardEnv | undefined;

/** The dashboard's settings, read and validated with the rest in lib/server/env.ts. */
export function dashboardEnv(): DashboardEnv {
  if (cached) return cached;
  const { NEXTAUTH_SECRET, NEXTAUTH_URL, ESCROW_API_URL, ESCROW_API_KEY, PORT } = env();
  const apiUrl = (ESCROW_API_URL ?? `http://127.0.0.1:${PORT}/v1`).replace(/\/+$/, '');
  cached = { NEXTAUTH_SECRET, NEXTAUTH_URL, ESCROW_API_URL, ESCROW_API_KEY, apiUrl };
  return cached;
}
