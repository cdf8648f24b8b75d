import 'server-only';
import { sql } from 'drizzle-orm';
import type { Transfer } from '@/lib/escrow/ledger';
import type { Tx } from '../db/client';
import { builtOnce } from '../db/built-once';
import { runAsOneStatement, type Write } from '../db/one-statement';
import type { ClientRow } from '../db/schema';
import { ledgerAccounts, ledgerEntries, ledgerTransfers } from '../db/schema';
import { insertRows, updateRows } from '../db/recordset';
import { hasPassedDeadline } from '../deadlines/scan';
import { uuidv7 } from '../ids';

/**
 * Locks ledger accounts for the rest of the database transaction in one statement, in one order for every
 * writer, so two transfers touching the same accounts cannot deadlock: parties' accounts (wallets,
 * escrows) by id, then the client's house accounts (fees, outside, payouts in flight) by id. House
 * accounts go last because a milestone step locks its party accounts first and its house accounts at
 * its end; returns the balances as they now stand.
 */
export async function lockLedgerAccounts(tx: Tx, accountIds: string[]): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await tx
    .select({ id: ledgerAccounts.id, balance: ledgerAccounts.balanceKobo })
    .from(ledgerAccounts)
    .where(sql`${ledgerAccounts.id} = any(${sql.param([...new Set(accountIds)])}::uuid[])`)
    .orderBy(sql`${ledgerAccounts.kind} in ('platform_fees', 'external', 'payouts_in_flight')`, ledgerAccounts.id)
    .for('update')
    .prepare('lock_ledger_accounts')
    .execute();
  return new Map(rows.map((r) => [r.id, r.balance]));
}

/** A milestone's accounts, by their part in it: the parties' wallets and the milestone's escrow. */
export type MilestoneAccount = 'buyer_wallet' | 'seller_wallet' | 'escrow';

/**
 * lockLedgerAccounts for a milestone's own accounts, found by the milestone id alone, so that it can be
 * sent behind the statement that locks the milestone's transaction and save an operation a round trip.
 * It locks nothing while a deadline of the transaction is due: settling that first moves money and takes
 * locks of its own, and the accounts are then locked after it, in the order every writer takes them.
 */
export async function lockAccountsOfMilestone(
  tx: Tx,
  a: { clientId: string; milestoneId: string; parts: readonly MilestoneAccount[]; now: Date },
): Promise<Map<string, number>> {
  if (a.parts.length === 0) return new Map();
  const rows = await tx
    .select({ id: ledgerAccounts.id, balance: ledgerAccounts.balanceKobo })
    .from(ledgerAccounts)
    .where(ACCOUNTS_OF_MILESTONE)
    .orderBy(ledgerAccounts.id)
    .for('update')
    .prepare('lock_accounts_of_milestone')
    .execute({ milestoneId: a.milestoneId, clientId: a.clientId, parts: [...a.parts], now: a.now.toISOString() });
  return new Map(rows.map((r) => [r.id, r.balance]));
}

/** lockAccountsOfMilestone's condition: its deadline check is a branch per kind of deadline, so it is built once. */
const ACCOUNTS_OF_MILESTONE = builtOnce(
  sql`${ledgerAccounts.id} in (
    select account.id
    from milestones m
    join transactions t on t.id = m.transaction_id
    join parties buyer on buyer.id = t.buyer_party_id
    join organisations buyer_org on buyer_org.id = buyer.organisation_id
    join parties seller on seller.id = t.seller_party_id
    join organisations seller_org on seller_org.id = seller.organisation_id
    join milestone_escrows escrow on escrow.milestone_id = m.id
    cross join lateral (values ('buyer_wallet', buyer_org.wallet_id), ('seller_wallet', seller_org.wallet_id), ('escrow', escrow.id)) account (part, id)
    where m.id = ${sql.placeholder('milestoneId')} and m.client_id = ${sql.placeholder('clientId')}
      and account.part = any(${sql.placeholder('parts')}::text[])
      and not ${hasPassedDeadline(sql`m.transaction_id`, sql`${sql.placeholder('now')}::timestamptz`)}
  )`,
);

/**
 * The accounts to lock (lockLedgerAccounts) before a milestone action's write moves their balances.
 * A client's house accounts (platform fees, money outside) have no balance to check, and every payout of
 * the client credits the one fee account: locked up front, it was held across the whole operation, and
 * concurrent approvals queued on it. A transfer that touches one house account leaves it
 * to the step's own balance update, for an operation whose step is its last statement before commit (a
 * party's own milestone action): a transaction holding it waits for nothing else, so no cycle of waits can
 * form. Two house accounts are both locked in order.
 */
export function accountsToLockFirst(transfer: Transfer, client: Pick<ClientRow, 'feeAccountId' | 'externalAccountId' | 'payoutsAccountId'>): string[] {
  const accounts = [...new Set(transfer.postings.map((p) => p.accountId))];
  const houseAccounts = [client.feeAccountId, client.externalAccountId, client.payoutsAccountId];
  const house = accounts.filter((id) => houseAccounts.includes(id));
  return house.length === 1 ? accounts.filter((id) => id !== house[0]) : accounts;
}

/** Each account's net movement in a transfer: one balance update per account, however many legs touch it. */
export function netMovements(transfer: Transfer): Map<string, number> {
  const net = new Map<string, number>();
  for (const p of transfer.postings) net.set(p.accountId, (net.get(p.accountId) ?? 0) + p.amount);
  return net;
}

export type TransferInput = { clientId: string; transfer: Transfer; milestoneId?: string; payoutId?: string; checkoutId?: string; description: string; now: Date; id?: string };

/**
 * The writes of a balanced transfer, to run in the caller's statement: the transfer, its entries, and one
 * balance update per account by its net amount. Its accounts must already be locked (lockLedgerAccounts),
 * or be a house account left to this update (accountsToLockFirst).
 */
export function transferWrites(a: TransferInput): Write[] {
  return transfersWrites([a]);
}

/** The rows of balanced transfers: the transfers, their entries, and each account's net movement over all of them. */
export function ledgerRows(list: TransferInput[]) {
  const transfers: (typeof ledgerTransfers.$inferInsert)[] = [];
  const entries: (typeof ledgerEntries.$inferInsert)[] = [];
  const net = new Map<string, number>();
  let at: Date | undefined;
  for (const a of list) {
    if (a.transfer.postings.length === 0) continue;
    const transferId = a.id ?? uuidv7();
    at = a.now;
    transfers.push({ id: transferId, clientId: a.clientId, kind: a.transfer.kind, milestoneId: a.milestoneId ?? null, payoutId: a.payoutId ?? null, checkoutId: a.checkoutId ?? null, description: a.description, createdAt: a.now });
    for (const p of a.transfer.postings) entries.push({ id: uuidv7(), transferId, accountId: p.accountId, amountKobo: p.amount, createdAt: a.now });
    for (const [accountId, amount] of netMovements(a.transfer)) net.set(accountId, (net.get(accountId) ?? 0) + amount);
  }
  const balances = [...net].filter(([, amount]) => amount !== 0).map(([id, amount]) => ({ id, balanceKobo: amount, updatedAt: at! }));
  return { transfers, entries, balances };
}

/**
 * transferWrites for several transfers in one statement (a release and the payout it starts): each
 * account's balance is updated once, by its net movement over all of them, since a statement can update
 * a row only once.
 */
export function transfersWrites(list: TransferInput[]): Write[] {
  const { transfers, entries, balances } = ledgerRows(list);
  const writes: Write[] = [];
  for (const t of transfers) {
    const at = t.createdAt!.toISOString();
    const entriesOfTransfer = entries
      .filter((e) => e.transferId === t.id)
      .map((e) => sql`(${e.id}::uuid, ${t.id}::uuid, ${e.accountId}::uuid, ${e.amountKobo}::bigint, ${at}::timestamptz)`);
    writes.push(
      sql`insert into ledger_transfers (id, client_id, kind, milestone_id, payout_id, checkout_id, description, created_at)
        values (${t.id}::uuid, ${t.clientId}::uuid, ${t.kind}, ${t.milestoneId}::uuid, ${t.payoutId}::uuid, ${t.checkoutId ?? null}::uuid, ${t.description}, ${at}::timestamptz)`,
      sql`insert into ledger_entries (id, transfer_id, account_id, amount_kobo, created_at) values ${sql.join(entriesOfTransfer, sql`, `)}`,
    );
  }
  // One update by primary key per account: a join of the accounts with a VALUES list was planned (and
  // its plan kept for the connection) as a hash join over every account while the table was small.
  for (const b of balances) {
    writes.push(sql`update ledger_accounts set balance_kobo = balance_kobo + ${b.balanceKobo}::bigint, updated_at = ${b.updatedAt.toISOString()}::timestamptz where id = ${b.id}::uuid`);
  }
  return writes;
}

/**
 * The writes of many transfers at once (the deadline runner's batch): three statements whatever their
 * number. Their accounts must already be locked, house accounts included (lockLedgerAccounts).
 */
export function transfersInBulk(list: TransferInput[]): Write[] {
  const { transfers, entries, balances } = ledgerRows(list);
  if (transfers.length === 0) return [];
  return [insertRows(ledgerTransfers, transfers), insertRows(ledgerEntries, entries), updateRows(ledgerAccounts, balances, { add: ['balanceKobo'] })];
}

/** Locks a balanced transfer's accounts and writes it now (one statement), inside the caller's database transaction. */
export async function postTransfer(tx: Tx, a: TransferInput): Promise<void> {
  if (a.transfer.postings.length === 0) return;
  await lockLedgerAccounts(
    tx,
    a.transfer.postings.map((p) => p.accountId),
  );
  await runAsOneStatement(tx, 'post_transfer', transferWrites(a));
}

export async function createLedgerAccount(
  tx: Tx,
  a: { id: string; clientId: string; kind: 'wallet' | 'escrow' | 'platform_fees' | 'external' | 'payouts_in_flight'; now: Date },
): Promise<void> {
  await tx.insert(ledgerAccounts).values({ id: a.id, clientId: a.clientId, kind: a.kind, balanceKobo: 0, createdAt: a.now, updatedAt: a.now });
}
