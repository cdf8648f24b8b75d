import 'server-only';
import { redirect } from 'next/navigation';
import { getSession } from '../auth';
import { getDb } from '../db/client';
import { dashboardClientId } from '../escrow-client';
import { findAccount } from './accounts';
import { isDemoAccount, isRetiredDemoAccount } from './demo-accounts';

export type Actor =
  | { kind: 'admin'; accountId: string; name: string; email: string; clientId: string }
  /** `disputeClientId`: the one client whose disputes this team member may see and decide, or null for every client. */
  | { kind: 'dispute_team'; accountId: string; name: string; email: string; clientId: string; disputeClientId: string | null }
  | { kind: 'customer'; accountId: string; name: string; email: string; clientId: string; escrowUserId: string };

/**
 * The signed-in person, re-read from the database on every call (a JWT alone would keep a removed
 * account alive until it expires), and only if the account belongs to the client this dashboard's API
 * key serves: every record the key can reach is that client's.
 */
export async function currentActor(): Promise<Actor | null> {
  const session = await getSession();
  const accountId = session?.user?.accountId;
  if (!accountId) return null;
  const db = await getDb();
  const account = await findAccount(db, accountId);
  if (!account?.passwordHash) return null;
  if (await isRetiredDemoAccount(db, account)) return null;
  if (account.clientId !== (await dashboardClientId())) return null;
  const base = { accountId: account.id, name: account.name, email: account.email, clientId: account.clientId };
  if (account.role === 'admin') return { kind: 'admin', ...base };
  // The service's dispute team serves every client; the demo one (its password is published) only the demo client.
  if (account.role === 'dispute_team') return { kind: 'dispute_team', ...base, disputeClientId: isDemoAccount(account) ? account.clientId : null };
  if (!account.escrowUserId) return null;
  return { kind: 'customer', ...base, escrowUserId: account.escrowUserId };
}

/** For pages: signed out goes to the sign-in page. */
export async function requireActor(): Promise<Actor> {
  const actor = await currentActor();
  if (!actor) redirect('/login');
  return actor;
}

/** Where each kind of account starts. */
export function homeOf(actor: Actor): string {
  if (actor.kind === 'admin') return '/admin/transactions';
  if (actor.kind === 'dispute_team') return '/dispute-team';
  return '/transactions';
}

export async function requireAdmin(): Promise<Extract<Actor, { kind: 'admin' }>> {
  const actor = await requireActor();
  if (actor.kind !== 'admin') redirect(homeOf(actor));
  return actor;
}

export async function requireCustomer(): Promise<Extract<Actor, { kind: 'customer' }>> {
  const actor = await requireActor();
  if (actor.kind !== 'customer') redirect(homeOf(actor));
  return actor;
}

export async function requireDisputeTeam(): Promise<Extract<Actor, { kind: 'dispute_team' }>> {
  const actor = await requireActor();
  if (actor.kind !== 'dispute_team') redirect(homeOf(actor));
  return actor;
}
