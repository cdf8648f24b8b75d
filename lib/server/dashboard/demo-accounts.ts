import 'server-only';
import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { clients, dashboardAccounts } from '../db/schema';
import { DEMO_DASHBOARD_ACCOUNTS } from '../seed/dashboard-accounts';

/**
 * Demo accounts' passwords are published (README, the start banner), so docs/decisions.md §14 gives them no power
 * beyond the demo client, and none at all once the server serves real money: from the first live-mode
 * client on, they cannot sign in, their sessions end, and they are not seeded again.
 */
const DEMO_EMAILS: ReadonlySet<string> = new Set(Object.values(DEMO_DASHBOARD_ACCOUNTS).map((account) => account.email));

export const isDemoAccount = (account: { email: string }) => DEMO_EMAILS.has(account.email);

// Clients never change mode and are never deleted, so once seen, a live client stays: no query after that.
let liveClientSeen = false;

export async function hasLiveClient(db: DbOrTx): Promise<boolean> {
  if (liveClientSeen) return true;
  const [row] = await db.select({ id: clients.id }).from(clients).where(eq(clients.mode, 'live')).limit(1);
  return (liveClientSeen = row !== undefined);
}

/** A demo account on a server that has a live client: refused at sign-in and on every request after. */
export async function isRetiredDemoAccount(db: DbOrTx, account: { email: string }): Promise<boolean> {
  return isDemoAccount(account) && (await hasLiveClient(db));
}

export type DemoAccountsState = 'on' | 'retired' | 'off';

/** For the start banner: whether the published demo sign-ins work on this server, and if not, why. */
export async function demoAccountsState(db: DbOrTx): Promise<DemoAccountsState> {
  if (await hasLiveClient(db)) return 'retired';
  const [demo] = await db
    .select({ id: dashboardAccounts.id })
    .from(dashboardAccounts)
    .where(inArray(dashboardAccounts.email, [...DEMO_EMAILS]))
    .limit(1);
  return demo ? 'on' : 'off';
}

export const RETIRED_DEMO_MESSAGE =
  'Demo sign-ins are off: this server has a live-mode client, and the demo accounts\' passwords are published. Sign in with your own accounts.';
