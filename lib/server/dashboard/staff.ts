import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { StaffMember, TeamRole } from '@/lib/contracts/dashboard-staff';
import type { Db, DbOrTx } from '../db/client';
import { dashboardAccounts, dashboardInvites } from '../db/schema';
import { createInvite, findAccountByEmail, inviteByEmail, normaliseEmail, type AccountRow } from './accounts';

/**
 * A client's staff (docs/decisions.md §14): admins and read-only viewers, invited by email with a one-time link,
 * removed by an admin. The operator invites a client's first admin the same way.
 */

const STAFF_ROLES: TeamRole[] = ['admin', 'viewer'];

export type Invited = { ok: true; account: AccountRow; token: string; expiresAt: Date } | { ok: false; message: string };

const invitedAsWords = (role: TeamRole, clientName?: string) =>
  `${role === 'admin' ? 'an admin' : 'a viewer (read-only)'}${clientName ? ` of ${clientName}` : ''}`;

/**
 * Invites `email` to the client as `role`: a new account, or a removed one taken back, or a pending
 * invite made again (its earlier link stops working). An email that already signs in is refused: an
 * email names one account across the dashboard.
 */
export async function inviteStaff(
  db: Db,
  a: { clientId: string; clientName?: string; email: string; name: string; role: TeamRole; invitedBy: string | null; now: Date },
): Promise<Invited> {
  const email = normaliseEmail(a.email);
  const existing = await findAccountByEmail(db, email);
  let account: AccountRow | undefined;
  if (!existing) {
    [account] = await db
      .insert(dashboardAccounts)
      .values({ id: randomUUID(), email, name: a.name, role: a.role, clientId: a.clientId, createdAt: a.now, updatedAt: a.now })
      .onConflictDoNothing()
      .returning();
    if (!account) return { ok: false, message: `${email} was invited by someone else a moment ago.` };
  } else if (existing.removedAt || (!existing.passwordHash && existing.clientId === a.clientId && STAFF_ROLES.includes(existing.role as TeamRole))) {
    // Removed (free to take back) or still pending here: the invite is made again, as this role.
    [account] = await db
      .update(dashboardAccounts)
      .set({ name: a.name, role: a.role, clientId: a.clientId, escrowUserId: null, passwordHash: null, removedAt: null, notificationsReadThrough: null, updatedAt: a.now })
      .where(eq(dashboardAccounts.id, existing.id))
      .returning();
    if (!account) return { ok: false, message: `${email} could not be invited: try again.` };
  } else {
    return { ok: false, message: `${email} already has a dashboard account: each email signs in to one account.` };
  }
  const invite = await inviteByEmail(db, account, a.invitedBy, a.now, invitedAsWords(a.role, a.clientName));
  return { ok: true, account, ...invite };
}

/** A client's admins and viewers, not removed, oldest first, each with where its invite stands. */
export async function staffOf(db: DbOrTx, clientId: string, now: Date): Promise<StaffMember[]> {
  const accounts = await db
    .select()
    .from(dashboardAccounts)
    .where(and(eq(dashboardAccounts.clientId, clientId), inArray(dashboardAccounts.role, STAFF_ROLES), isNull(dashboardAccounts.removedAt)))
    .orderBy(asc(dashboardAccounts.createdAt), asc(dashboardAccounts.id));
  const pending = accounts.filter((a) => !a.passwordHash).map((a) => a.id);
  const usable = pending.length
    ? await db
        .select({ accountId: dashboardInvites.accountId })
        .from(dashboardInvites)
        .where(and(inArray(dashboardInvites.accountId, pending), isNull(dashboardInvites.usedAt), gt(dashboardInvites.expiresAt, now)))
    : [];
  const invited = new Set(usable.map((row) => row.accountId));
  return accounts.map((a) => ({
    account_id: a.id,
    email: a.email,
    name: a.name,
    role: a.role as TeamRole,
    status: a.passwordHash ? 'active' : invited.has(a.id) ? 'invited' : 'expired',
    last_signed_in_at: a.lastSignedInAt?.toISOString() ?? null,
    invited_at: a.createdAt.toISOString(),
  }));
}

async function memberOf(db: DbOrTx, clientId: string, accountId: string): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(dashboardAccounts)
    .where(
      and(
        eq(dashboardAccounts.id, accountId),
        eq(dashboardAccounts.clientId, clientId),
        inArray(dashboardAccounts.role, STAFF_ROLES),
        isNull(dashboardAccounts.removedAt),
      ),
    )
    .limit(1);
  return row;
}

export type Outcome = { ok: true; message: string; account: AccountRow } | { ok: false; message: string };

/**
 * Removes a member (or a pending invite): it cannot sign in, its open sessions end at their next request
 * (actor.ts re-reads the account), and its unused links stop working. The last admin who can sign in
 * stays, so a client is never left without one; nobody removes themselves.
 */
export async function removeMember(db: Db, clientId: string, accountId: string, by: string, now: Date): Promise<Outcome> {
  if (accountId === by) return { ok: false, message: 'You cannot remove yourself: ask another admin.' };
  return db.transaction(async (tx) => {
    const member = await memberOf(tx, clientId, accountId);
    if (!member) return { ok: false, message: 'That team member was not found.' };
    if (member.role === 'admin' && member.passwordHash) {
      // Locked, so two admins removing each other at once cannot both succeed: one of them stays.
      const admins = await tx
        .select({ id: dashboardAccounts.id, passwordHash: dashboardAccounts.passwordHash })
        .from(dashboardAccounts)
        .where(and(eq(dashboardAccounts.clientId, clientId), eq(dashboardAccounts.role, 'admin'), isNull(dashboardAccounts.removedAt)))
        .for('update');
      const others = admins.filter((admin) => admin.id !== accountId && admin.passwordHash);
      if (others.length === 0) return { ok: false, message: 'This is the last admin: invite another admin first.' };
    }
    await tx.update(dashboardInvites).set({ usedAt: now }).where(and(eq(dashboardInvites.accountId, accountId), isNull(dashboardInvites.usedAt)));
    const [removed] = await tx.update(dashboardAccounts).set({ removedAt: now, updatedAt: now }).where(eq(dashboardAccounts.id, accountId)).returning();
    if (!removed) return { ok: false, message: 'That team member was not found.' };
    return { ok: true, message: member.passwordHash ? `${member.name} was removed.` : `The invite to ${member.email} was revoked.`, account: removed };
  });
}

/** A new one-time link for a member who has not signed in yet (the earlier one stops working), emailed again. */
export async function resendInvite(db: Db, clientId: string, accountId: string, by: string, now: Date, clientName?: string): Promise<Invited> {
  const member = await memberOf(db, clientId, accountId);
  if (!member) return { ok: false, message: 'That team member was not found.' };
  if (member.passwordHash) return { ok: false, message: `${member.name} already signs in: there is no invite to send again.` };
  const invite = await inviteByEmail(db, member, by, now, invitedAsWords(member.role as TeamRole, clientName));
  return { ok: true, account: member, ...invite };
}

/**
 * An operator account and a one-time link to choose its password (`npm run create-operator`): a new
 * account, or a new link for an existing operator (the earlier one stops working), which is also how an
 * operator who lost the password gets back in. An email that belongs to anyone else is refused.
 */
export async function inviteOperator(db: Db, a: { email: string; name: string; now: Date }): Promise<Invited> {
  const email = normaliseEmail(a.email);
  const existing = await findAccountByEmail(db, email);
  let account = existing;
  if (existing && existing.role !== 'operator') return { ok: false, message: `${email} already signs in to the dashboard as someone else.` };
  if (existing) {
    [account] = await db
      .update(dashboardAccounts)
      .set({ passwordHash: null, removedAt: null, updatedAt: a.now })
      .where(eq(dashboardAccounts.id, existing.id))
      .returning();
  } else {
    [account] = await db
      .insert(dashboardAccounts)
      .values({ id: randomUUID(), email, name: a.name, role: 'operator', clientId: null, createdAt: a.now, updatedAt: a.now })
      .onConflictDoNothing()
      .returning();
  }
  if (!account) return { ok: false, message: `${email} could not be set up: try again.` };
  const invite = await createInvite(db, account.id, null, a.now);
  return { ok: true, account, ...invite };
}
