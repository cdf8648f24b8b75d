import ipaddr from 'ipaddr.js';
import { getDb } from '@/lib/server/db/client';
import { demoAccountsState } from '@/lib/server/dashboard/demo-accounts';
import { clientAddressOf } from '@/lib/server/http/client-address';

/**
 * For the start banner (scripts/start.ts, on this machine): whether the published demo sign-ins work here
 * ('on'), no longer work because the server has a live-mode client ('retired'), or were never made ('off').
 * Answered to loopback callers only: whether a server holds live clients is nobody else's business. Kept
 * apart from /api/health, which stays free of queries.
 */
export async function GET(request: Request) {
  const address = clientAddressOf(request.headers);
  if (!ipaddr.isValid(address) || ipaddr.process(address).range() !== 'loopback') {
    return Response.json({ status: false, message: 'Not found.', code: 'NOT_FOUND' }, { status: 404 });
  }
  return Response.json({ status: true, message: 'ok', data: { demo_accounts: await demoAccountsState(await getDb()) } });
}
