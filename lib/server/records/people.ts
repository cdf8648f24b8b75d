import 'server-only';
import { ratingSummary } from '@/lib/escrow/ratings';
import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { OrganisationRecord, PartyRecord, UserRecord, WalletRecord } from '@/lib/contracts/records';
import { koboToNaira } from '@/lib/escrow/money';
import type { DbOrTx } from '../db/client';
import { rowFromJson } from '../db/rows';
import { ledgerAccounts, organisations, parties, users, wallets } from '../db/schema';
import { notFound } from '../app-error';
import { iso, isoOrNull } from './iso';

export type UserRow = typeof users.$inferSelect;
export type WalletRow = typeof wallets.$inferSelect;
export type OrganisationRow = typeof organisations.$inferSelect;
export type PartyRow = typeof parties.$inferSelect;

export function userRecord(u: UserRow): UserRecord {
  return {
    id: u.id,
    first_name: u.firstName,
    last_name: u.lastName,
    user_name: u.userName,
    email: u.email,
    default_email: `${u.clientId}_${u.email}`,
    phone: u.phone,
    password: null,
    is_account_verified: u.isAccountVerified,
    password_reset: u.passwordReset,
    role: 'USER',
    referredById: u.referredById,
    referral_code: u.referralCode,
    clientId: u.clientId,
    source: u.source,
    public_key: null,
    secret_key: null,
    api_enabled: u.apiEnabled,
    password_created: u.passwordCreated,
    last_logged_in_at: isoOrNull(u.lastLoggedInAt),
    rating: ratingSummary(u.ratingSum, u.ratingCount),
    is_active: u.deactivatedAt === null,
    deactivated_at: isoOrNull(u.deactivatedAt),
    metadata: u.metadata ?? {},
    created_at: iso(u.createdAt),
    updated_at: iso(u.updatedAt),
  };
}

export function walletRecord(w: WalletRow, balanceKobo: number): WalletRecord {
  return {
    id: w.id,
    name: w.name,
    account_reference: w.accountReference,
    provider: w.provider,
    funder_email: w.funderEmail,
    disbursement_email: w.disbursementEmail,
    bvn: w.bvn,
    pgA_provider_account_properties: w.providerAccount ?? null,
    pgB_provider_account_properties: null,
    balance: koboToNaira(balanceKobo),
    created_at: iso(w.createdAt),
    updated_at: iso(w.updatedAt),
  };
}

export function organisationRecord(o: OrganisationRow): OrganisationRecord {
  return {
    id: o.id,
    name: o.name,
    wallet_id: o.walletId,
    pgA_customer_code: o.pgACustomerCode,
    account_kyc_type: o.accountKycType,
    is_kyc_completed: o.isKycCompleted,
    is_kyc_submitted: o.isKycSubmitted,
    is_kyc_approved: o.isKycApproved,
    is_kyc_declined: o.isKycDeclined,
    kyc_decline_reason: o.kycDeclineReason,
    kyc_completed_at: isoOrNull(o.kycCompletedAt),
    created_by: o.createdBy,
    kyc_approved_by: o.kycApprovedBy,
    kyc_declined_by: o.kycDeclinedBy,
    updated_by: o.updatedBy,
    location_type: 'LOCAL',
    created_at: iso(o.createdAt),
    updated_at: iso(o.updatedAt),
  };
}

export type PartyGraph = { party: PartyRow; user: UserRow; organisation: OrganisationRow };

export function partyRecord(p: PartyGraph): PartyRecord {
  return { ...partyWithoutOrganisation(p), organisation: organisationRecord(p.organisation) };
}

/** A party and its user: what a list row shows of its buyer and seller. */
export type PartyWithUser = Pick<PartyGraph, 'party' | 'user'>;

export function partyWithoutOrganisation(p: PartyWithUser): Omit<PartyRecord, 'organisation'> {
  return {
    id: p.party.id,
    user_id: p.party.userId,
    organisation_id: p.party.organisationId,
    role: 'SUPER ADMIN',
    created_at: iso(p.party.createdAt),
    updated_at: iso(p.party.updatedAt),
    user: userRecord(p.user),
  };
}

/**
 * Parties with their users and organisations, each table's row as one JSON value (db/rows.ts says why). Each
 * party's user and organisation are looked up by key (both are required references), so the cost follows
 * the parties asked for: as joins, the planner hashed every user and organisation of the database once its
 * tables were small enough, which a list page of forty parties paid for on every request.
 */
async function partyGraphsWhere(db: DbOrTx, name: string, where: SQL): Promise<PartyGraph[]> {
  const rows = await db
    .select({
      party: sql<unknown>`to_jsonb(p)`,
      user: sql<unknown>`(select to_jsonb(u) from users u where u.id = p.user_id)`,
      organisation: sql<unknown>`(select to_jsonb(o) from organisations o where o.id = p.organisation_id)`,
    })
    .from(sql`parties p`)
    .where(where)
    .prepare(name)
    .execute();
  return rows.map((r) => ({ party: rowFromJson(parties, r.party), user: rowFromJson(users, r.user), organisation: rowFromJson(organisations, r.organisation) }));
}

/**
 * The parties of this client named by party or user id (request bodies may use either: docs/decisions.md §5),
 * with their users and organisations, in one query; a name that matches nobody is absent from the map.
 */
export async function findPartyGraphs(db: DbOrTx, clientId: string, partyOrUserIds: string[]): Promise<Map<string, PartyGraph>> {
  const ids = sql`any(${sql.param(partyOrUserIds)}::uuid[])`;
  const rows = await partyGraphsWhere(db, 'party_graphs_of_client', sql`p.client_id = ${clientId} and (p.id = ${ids} or p.user_id = ${ids})`);
  const found = new Map<string, PartyGraph>();
  for (const id of partyOrUserIds) {
    const match = rows.find((r) => r.party.id === id) ?? rows.find((r) => r.party.userId === id);
    if (match) found.set(id, match);
  }
  return found;
}

export async function loadWallet(db: DbOrTx, userId: string): Promise<{ wallet: WalletRow; balanceKobo: number } | undefined> {
  const [row] = await db
    .select({ wallet: wallets, balanceKobo: ledgerAccounts.balanceKobo })
    .from(wallets)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, wallets.id))
    .where(eq(wallets.userId, userId))
    .limit(1);
  return row;
}

/** Request bodies and user paths may name a party by its party id or by its user id (docs/decisions.md §5, issue #59). */
export async function findParty(db: DbOrTx, clientId: string, partyOrUserId: string): Promise<PartyRow | undefined> {
  const [party] = await db
    .select()
    .from(parties)
    .where(and(eq(parties.clientId, clientId), or(eq(parties.id, partyOrUserId), eq(parties.userId, partyOrUserId))))
    .limit(1)
    .prepare('find_party')
    .execute();
  return party;
}

/** The client's user named by user id or by party id; 404 otherwise (another client's ids included). */
export async function findUser(db: DbOrTx, clientId: string, userOrPartyId: string): Promise<UserRow> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userOrPartyId), eq(users.clientId, clientId)))
    .limit(1);
  if (user) return user;
  // A party id costs one more lookup: user ids, the common case, keep their single query.
  const party = await findParty(db, clientId, userOrPartyId);
  const [ofParty] = party ? await db.select().from(users).where(and(eq(users.id, party.userId), eq(users.clientId, clientId))).limit(1) : [];
  if (!ofParty) throw notFound('User', userOrPartyId);
  return ofParty;
}

/**
 * A list's `user_id` filter as the user id it means: a party id of this client becomes its user's id; any
 * other id is kept as given, so it matches nothing (lists filter, they do not 404).
 */
export async function userIdOfFilter(db: DbOrTx, clientId: string, userOrPartyId: string): Promise<string> {
  const party = await findParty(db, clientId, userOrPartyId);
  return party?.userId ?? userOrPartyId;
}
