import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, eq, ilike, or } from 'drizzle-orm';
import { containsPattern, createdWithin } from '../db/list-filters';
import type { CreateUserBody, ListUsersQuery, UpdateUserBody } from '@/lib/contracts/users';
import type { Db } from '../db/client';
import { pagedList } from '../db/paged-list';
import { organisations, parties, users, wallets } from '../db/schema';
import { AppError, notFound } from '../app-error';
import type { ClientRow } from '../db/schema';
import { uuidv7 } from '../ids';
import { findUser, userRecord, walletRecord } from '../records/people';
import { createLedgerAccount } from '../engine/post-transfer';
import { patchedMetadata } from '../engine/metadata';
import { metadataToStore } from '@/lib/contracts/metadata';

const WALLET_PROVIDER = 'ESCROW_DESK_SANDBOX';

function userName(first: string): string {
  const base = first.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 12) || 'user';
  return `${base}_${randomBytes(4).toString('hex')}`;
}

/** User, wallet, organisation and party in one database transaction (docs/decisions.md §3). */
export async function createUser(db: Db, client: ClientRow, body: CreateUserBody, now: Date) {
  if (!client.isKycCompleted) {
    throw new AppError('KYC_INCOMPLETE', 'Your account has not completed KYC, so it cannot create users yet.');
  }
  const email = (body.email_address ?? body.email ?? '').trim();
  const emailLower = email.toLowerCase();
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id, deactivatedAt: users.deactivatedAt })
      .from(users)
      .where(and(eq(users.clientId, client.id), eq(users.emailLower, emailLower)))
      .limit(1);
    if (existing) {
      throw new AppError(
        'EMAIL_TAKEN',
        existing.deactivatedAt
          ? `A user with the email ${email} already exists (${existing.id}, deactivated): reactivate them with PATCH /v1/users/${existing.id} {"is_active": true}.`
          : `A user with the email ${email} already exists.`,
      );
    }
    const userId = uuidv7();
    const walletId = uuidv7();
    const organisationId = uuidv7();
    const name = `${body.first_name} ${body.last_name}`;
    const [user] = await tx
      .insert(users)
      .values({
        id: userId,
        clientId: client.id,
        firstName: body.first_name,
        lastName: body.last_name,
        userName: userName(body.first_name),
        email,
        emailLower,
        phone: body.phone ?? null,
        metadata: metadataToStore(body.metadata),
        createdAt: now,
        updatedAt: now,
      })
      // Two racing creates with one email: the unique index decides, and the loser gets the same 403.
      .onConflictDoNothing()
      .returning();
    if (!user) throw new AppError('EMAIL_TAKEN', `A user with the email ${email} already exists.`);
    await createLedgerAccount(tx, { id: walletId, clientId: client.id, kind: 'wallet', now });
    const [wallet] = await tx
      .insert(wallets)
      .values({
        id: walletId,
        clientId: client.id,
        userId,
        name,
        accountReference: `ESW_${randomBytes(6).toString('hex').toUpperCase()}`,
        provider: WALLET_PROVIDER,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await tx.insert(organisations).values({
      id: organisationId,
      clientId: client.id,
      userId,
      name,
      walletId,
      createdBy: client.id,
      createdAt: now,
      updatedAt: now,
    });
    await tx.insert(parties).values({ id: uuidv7(), clientId: client.id, userId, organisationId, createdAt: now, updatedAt: now });
    if (!wallet) throw new Error('wallet insert returned nothing');
    return { ...userRecord(user), wallet: walletRecord(wallet, 0) };
  });
}

/**
 * Name, phone, metadata and whether the customer is active. A renamed customer's wallet and organisation take the
 * new name in the same transaction, since both are shown as the customer's name.
 */
export async function updateUser(db: Db, client: ClientRow, userOrPartyId: string, body: UpdateUserBody, now: Date) {
  return db.transaction(async (tx) => {
    const userId = (await findUser(tx, client.id, userOrPartyId)).id;
    const [current] = await tx
      .select()
      .from(users)
      .where(and(eq(users.id, userId), eq(users.clientId, client.id)))
      .for('update');
    if (!current) throw notFound('User', userId);
    const firstName = body.first_name ?? current.firstName;
    const lastName = body.last_name ?? current.lastName;
    const deactivatedAt = body.is_active === undefined ? current.deactivatedAt : body.is_active ? null : (current.deactivatedAt ?? now);
    const metadata = body.metadata === undefined ? current.metadata : patchedMetadata(current.metadata, body.metadata);
    const [updated] = await tx
      .update(users)
      .set({ firstName, lastName, phone: body.phone === undefined ? current.phone : body.phone, deactivatedAt, metadata, updatedAt: now })
      .where(eq(users.id, userId))
      .returning();
    if (!updated) throw notFound('User', userId);
    if (firstName !== current.firstName || lastName !== current.lastName) {
      const name = `${firstName} ${lastName}`;
      await tx.update(wallets).set({ name, updatedAt: now }).where(eq(wallets.userId, userId));
      await tx.update(organisations).set({ name, updatedAt: now }).where(eq(organisations.userId, userId));
    }
    return userRecord(updated);
  });
}

export async function getUser(db: Db, client: ClientRow, userOrPartyId: string) {
  return userRecord(await findUser(db, client.id, userOrPartyId));
}

type UserListShape = { sort: 'ASC' | 'DESC'; clientId: string; term?: string; createdFrom?: string; createdTo?: string };

const userPage = pagedList(users, 'users', 'User', (v: UserListShape) => eq(users.clientId, v.clientId), (v: UserListShape) =>
  and(
    v.term !== undefined ? or(ilike(users.firstName, v.term), ilike(users.lastName, v.term), ilike(users.email, v.term)) : undefined,
    createdWithin(users.createdAt, v.createdFrom, v.createdTo),
  ),
  (v: UserListShape) => (v.term === undefined && v.createdFrom === undefined && v.createdTo === undefined ? { list: 'users', scope: v.clientId } : undefined),
);

export async function listUsers(db: Db, client: ClientRow, q: ListUsersQuery) {
  const shape = { sort: q.sort, clientId: client.id, term: containsPattern(q.search), createdFrom: q.created_from, createdTo: q.created_to };
  const { rows, pagination } = await userPage(db, shape, q);
  return { users: rows.map(userRecord), pagination };
}
