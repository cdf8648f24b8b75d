import { getDb } from '@/lib/server/db/client';
import { demoAccountsState } from '@/lib/server/dashboard/demo-accounts';

/**
 * For the start banner (scripts/start.ts): whether the published demo sign-ins work here ('on'), no longer
 * work because the server has a live-mode client ('retired'), or were never made ('off'). Kept apart from
 * /api/health, which stays free of queries.
 */
export async function GET() {
  return Response.json({ status: true, message: 'ok', data: { demo_accounts: await demoAccountsState(await getDb()) } });
}
