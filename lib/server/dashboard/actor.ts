import 'server-only';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { PAGE_PATH_HEADER, sameOriginPath } from '@/lib/contracts/redirect-target';
import { getSession } from '../auth';
import { getDb } from '../db/client';
import { singleClientId } from '../escrow-client';
import { findAccount, isDeactivatedCustomer, type AccountRow } from './accounts';
import { isDemoAccount, isRetiredDemoAccount } from './demo-accounts';
import type { Actor, DisputeDesk } from './actor-kind';

export type { Actor, ClientActor, DisputeDesk } from './actor-kind';

/** The actor an account signs in as, or null when it may not (removed, not yet accepted, or of another client than this dashboard's single one). */
export async function actorOf(account: AccountRow): Promise<Actor | null> {
  if (!account.passwordHash || account.removedAt) return null;
  const base = { accountId: account.id, name: account.name, email: account.email };
  if (account.role === 'operator') return { kind: 'operator', ...base, disputeClientId: null };
  // The service's dispute team serves every client; the demo one (its password is published) only the demo client.
  if (account.role === 'dispute_team') return { kind: 'dispute_team', ...base, disputeClientId: isDemoAccount(account) ? account.clientId : null };
  const clientId = account.clientId;
  if (!clientId) return null;
  // In single-client mode the dashboard holds one key: only that client's people act through it.
  const single = await singleClientId();
  if (single !== null && single !== clientId) return null;
  if (account.role === 'admin' || account.role === 'viewer') return { kind: 'admin', ...base, clientId, readOnly: account.role === 'viewer' };
  if (!account.escrowUserId) return null;
  return { kind: 'customer', ...base, clientId, escrowUserId: account.escrowUserId };
}

/**
 * The signed-in person, re-read from the database on every call (a JWT alone would keep a removed
 * account alive until it expires). Each client's people act with that client's own key, so every record
 * they reach is their client's.
 */
export async function currentActor(): Promise<Actor | null> {
  const session = await getSession();
  const accountId = session?.user?.accountId;
  if (!accountId) return null;
  const db = await getDb();
  const account = await findAccount(db, accountId);
  if (!account) return null;
  if (await isRetiredDemoAccount(db, account)) return null;
  if (await isDeactivatedCustomer(db, account)) return null;
  return actorOf(account);
}

/** For pages: signed out goes to the sign-in page. */
/** Signed out: to the sign-in page, which brings the person back to the page they asked for. */
export async function requireActor(): Promise<Actor> {
  const actor = await currentActor();
  if (!actor) {
    const page = sameOriginPath((await headers()).get(PAGE_PATH_HEADER), '');
    redirect(page ? `/login?next=${encodeURIComponent(page)}&expired=1` : '/login');
  }
  return actor;
}

/** Where each kind of account starts. */
export function homeOf(actor: Actor): string {
  if (actor.kind === 'operator') return '/operator/clients';
  if (actor.kind === 'admin') return '/admin/overview';
  if (actor.kind === 'dispute_team') return '/dispute-team';
  return '/transactions';
}

/** An admin or a viewer: pages show both the same; actions refuse viewers (action.ts). */
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

export async function requireOperator(): Promise<Extract<Actor, { kind: 'operator' }>> {
  const actor = await requireActor();
  if (actor.kind !== 'operator') redirect(homeOf(actor));
  return actor;
}

export async function requireDisputeDesk(): Promise<DisputeDesk> {
  const actor = await requireActor();
  if (actor.kind !== 'dispute_team' && actor.kind !== 'operator') redirect(homeOf(actor));
  return actor;
}

export const isDisputeDesk = (actor: Actor): actor is DisputeDesk => actor.kind === 'dispute_team' || actor.kind === 'operator';
