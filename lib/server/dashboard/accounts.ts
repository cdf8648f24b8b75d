import 'server-only';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { dashboardAccounts, dashboardInvites, users } from '../db/schema';
import { dashboardLinkBase, queueEmail } from '../email/outbox';
import { invitationEmail } from '../email/templates';
import { hashPassword } from './passwords';

export type AccountRow = typeof dashboardAccounts.$inferSelect;
export type AccountRole = AccountRow['role'];

export const INVITE_TTL_MS = 7 * 86_400_000;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function findAccountByEmail(db: DbOrTx, email: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(dashboardAccounts).where(eq(dashboardAccounts.email, normaliseEmail(email))).limit(1);
  return row;
}

export async function findAccount(db: DbOrTx, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(dashboardAccounts).where(eq(dashboardAccounts.id, id)).limit(1);
  return row;
}

/**
 * A customer account whose escrow user the client deactivated (PATCH /v1/users/{id}) signs in no more, and
 * its open sessions end at their next request. A user this database does not hold (a dashboard in front of
 * an external API) counts as active: that API still refuses new deals naming them.
 */
export async function isDeactivatedCustomer(db: DbOrTx, account: AccountRow): Promise<boolean> {
  if (account.role !== 'customer' || !account.escrowUserId || !account.clientId) return false;
  const [user] = await db
    .select({ deactivatedAt: users.deactivatedAt })
    .from(users)
    .where(and(eq(users.id, account.escrowUserId), eq(users.clientId, account.clientId)))
    .limit(1);
  return Boolean(user?.deactivatedAt);
}

export async function accountsForUsers(db: DbOrTx, clientId: string, userIds: string[]): Promise<AccountRow[]> {
  if (userIds.length === 0) return [];
  return db
    .select()
    .from(dashboardAccounts)
    .where(and(eq(dashboardAccounts.clientId, clientId), inArray(dashboardAccounts.escrowUserId, userIds)));
}

export async function recordSignIn(db: DbOrTx, id: string, now: Date): Promise<void> {
  await db.update(dashboardAccounts).set({ lastSignedInAt: now }).where(eq(dashboardAccounts.id, id));
}

type NewAccount = { email: string; name: string; role: AccountRole; clientId: string; escrowUserId?: string | null; password?: string };

/** Inserts unless the email is taken; returns the account with that email either way. */
export async function ensureAccount(db: DbOrTx, input: NewAccount, now: Date): Promise<{ account: AccountRow; created: boolean }> {
  const email = normaliseEmail(input.email);
  const inserted = await db
    .insert(dashboardAccounts)
    .values({
      id: randomUUID(),
      email,
      name: input.name,
      role: input.role,
      clientId: input.clientId,
      escrowUserId: input.role === 'customer' ? (input.escrowUserId ?? null) : null,
      passwordHash: input.password ? await hashPassword(input.password) : null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (inserted[0]) return { account: inserted[0], created: true };
  const existing = await findAccountByEmail(db, email);
  if (!existing) throw new Error(`dashboard account ${email} neither inserted nor found`);
  return { account: existing, created: false };
}

/** A new one-time token; earlier unused invites of the account stop working. Only the hash is stored. */
export async function createInvite(db: DbOrTx, accountId: string, createdBy: string | null, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + INVITE_TTL_MS);
  await db
    .update(dashboardInvites)
    .set({ usedAt: now })
    .where(and(eq(dashboardInvites.accountId, accountId), isNull(dashboardInvites.usedAt)));
  await db.insert(dashboardInvites).values({ id: randomUUID(), accountId, tokenHash: hashToken(token), createdBy, expiresAt, createdAt: now });
  return { token, expiresAt };
}

/**
 * A new invite and its email (docs/decisions.md §15) in one database transaction: the one-time link goes to the
 * person by mail as well as back to the inviter. The link is in the email's body, which is its purpose;
 * it is never logged.
 */
export async function inviteByEmail(
  db: Db,
  account: AccountRow,
  createdBy: string | null,
  now: Date,
  /** What the person is invited as, for the email ("an admin of Acme"); unset: a customer. */
  invitedAs?: string,
): Promise<{ token: string; expiresAt: Date }> {
  return db.transaction(async (tx) => {
    const invite = await createInvite(tx, account.id, createdBy, now);
    await queueEmail(tx, {
      clientId: account.clientId,
      kind: 'invitation',
      to: { email: account.email, name: account.name },
      content: invitationEmail({ name: account.name, inviteUrl: `${dashboardLinkBase()}/invite/${invite.token}`, expiresAt: invite.expiresAt, invitedAs }),
      // The token's hash, never the token: a dedupe key is shown to nobody but need not hold a secret either.
      dedupeKey: `invitation:${hashToken(invite.token)}`,
      sealed: true,
      now,
    });
    return invite;
  });
}

export async function findUsableInvite(db: DbOrTx, token: string, now: Date) {
  const [row] = await db
    .select({ invite: dashboardInvites, account: dashboardAccounts })
    .from(dashboardInvites)
    .innerJoin(dashboardAccounts, eq(dashboardAccounts.id, dashboardInvites.accountId))
    .where(
      and(eq(dashboardInvites.tokenHash, hashToken(token)), isNull(dashboardInvites.usedAt), gt(dashboardInvites.expiresAt, now), isNull(dashboardAccounts.removedAt)),
    )
    .limit(1);
  return row;
}

/** Spends the token and sets the password in one statement each, guarded so two tabs cannot both use it. */
export async function acceptInvite(db: DbOrTx, token: string, password: string, now: Date): Promise<AccountRow | undefined> {
  const found = await findUsableInvite(db, token, now);
  if (!found) return undefined;
  const spent = await db
    .update(dashboardInvites)
    .set({ usedAt: now })
    .where(and(eq(dashboardInvites.id, found.invite.id), isNull(dashboardInvites.usedAt)))
    .returning({ id: dashboardInvites.id });
  if (spent.length !== 1) return undefined;
  const [account] = await db
    .update(dashboardAccounts)
    .set({ passwordHash: await hashPassword(password), updatedAt: now })
    .where(eq(dashboardAccounts.id, found.account.id))
    .returning();
  return account;
}
