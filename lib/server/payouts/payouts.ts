import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, desc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import { amountWithin, containsPattern, createdWithin } from '../db/list-filters';
import { pagination } from '@/lib/contracts/common';
import type { CreatePayoutBody, ListPayoutsQuery, PayoutRecord } from '@/lib/contracts/payouts';
import { metadataToStore } from '@/lib/contracts/metadata';
import { findBank } from '@/lib/escrow/banks';
import type { Transfer } from '@/lib/escrow/ledger';
import { formatNaira, koboToNaira, parseNaira } from '@/lib/escrow/money';
import { canMovePayout, payoutCreation, payoutReference, payoutTransfer, SANDBOX_SETTLEMENT_MS, type PayoutStatus } from '@/lib/escrow/payouts';
import { AppError, notFound } from '../app-error';
import type { Db, DbOrTx, Tx } from '../db/client';
import { checkPageRequest, followingRow, pageAndNext, requireCursorRow } from '../db/paged-list';
import { exactTotal } from '../db/list-counts';
import { runAsOneStatement, type Write } from '../db/one-statement';
import { bankAccounts, payouts, users, type ClientRow } from '../db/schema';
import { eventWrites, type EventType } from '../events/record-event';
import { uuidv7 } from '../ids';
import { liveProvider, moneyProviderFor } from '../providers';
import { iso, isoOrNull } from '../records/iso';
import { findUser, loadWallet, userIdOfFilter, userRecord } from '../records/people';
import { sourcesOfPayouts } from './payout-sources';
import { lockLedgerAccounts, netMovements, transferWrites, type TransferInput } from '../engine/post-transfer';

export type PayoutRow = typeof payouts.$inferSelect;
type BankAccountRow = typeof bankAccounts.$inferSelect;

/** A payout as events carry it; the API's answers add its sources (payoutRecords). */
export type PayoutFields = Omit<PayoutRecord, 'sources'>;

export function payoutFields(p: PayoutRow): PayoutFields {
  return {
    id: p.id,
    reference: p.reference,
    user_id: p.userId,
    wallet_id: p.walletId,
    bank_account: {
      id: p.bankAccountId,
      account_number: p.accountNumber,
      account_name: p.accountName,
      bank_code: p.bankCode,
      bank_name: findBank(p.bankCode)?.name ?? p.bankCode,
    },
    amount: koboToNaira(p.amountKobo),
    currency: 'NGN',
    status: p.status,
    failure_reason: p.failureReason,
    provider: p.provider,
    provider_reference: p.providerReference,
    milestone_id: p.milestoneId,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    paid_at: isoOrNull(p.paidAt),
    failed_at: isoOrNull(p.failedAt),
    reversed_at: isoOrNull(p.reversedAt),
    metadata: p.metadata ?? {},
  };
}

/** Payouts as the API answers them, each with the wallet's credits it pays out (docs/decisions.md §18). */
export async function payoutRecords(db: DbOrTx, rows: readonly PayoutRow[]): Promise<PayoutRecord[]> {
  const sources = await sourcesOfPayouts(db, rows);
  return rows.map((row) => ({ ...payoutFields(row), sources: sources.get(row.id) ?? [] }));
}

async function payoutRecord(db: DbOrTx, row: PayoutRow): Promise<PayoutRecord> {
  const [record] = await payoutRecords(db, [row]);
  return record!;
}

const EVENT_OF: Record<Exclude<PayoutStatus, 'PENDING' | 'PROCESSING'>, EventType> = {
  PAID: 'payout.paid',
  FAILED: 'payout.failed',
  REVERSED: 'payout.reversed',
};

function accountsOf(client: ClientRow, walletId: string) {
  return { walletId, inFlightId: client.payoutsAccountId, externalId: client.externalAccountId };
}

/**
 * The writes that create a payout from a wallet whose account is locked and holds the amount: the
 * payout, its transfer into the in-flight account, and payout.created. In the sandbox it is with the
 * provider at once and paid SANDBOX_SETTLEMENT_MS later on the client's clock; with a real provider it
 * waits for the payout runner to send it (payouts/runner.ts).
 */
export function payoutCreationWrites(
  client: ClientRow,
  a: { userId: string; walletId: string; account: BankAccountRow; amountKobo: number; milestoneId?: string; metadata?: Record<string, string>; now: Date },
): AutoPayout & { row: PayoutRow } {
  const provider = moneyProviderFor(client).name;
  const sandbox = provider === 'sandbox';
  const reference = payoutReference(randomBytes(20));
  const row: PayoutRow = {
    id: uuidv7(),
    clientId: client.id,
    reference,
    userId: a.userId,
    walletId: a.walletId,
    bankAccountId: a.account.id,
    accountNumber: a.account.accountNumber,
    accountName: a.account.accountName,
    bankCode: a.account.bankCode,
    amountKobo: a.amountKobo,
    status: sandbox ? 'PROCESSING' : 'PENDING',
    failureReason: null,
    provider,
    providerReference: sandbox ? `SBX_${reference.slice(3)}` : null,
    milestoneId: a.milestoneId ?? null,
    sentAt: sandbox ? a.now : null,
    dueAt: sandbox ? new Date(a.now.getTime() + SANDBOX_SETTLEMENT_MS) : a.now,
    createdAt: a.now,
    updatedAt: a.now,
    paidAt: null,
    failedAt: null,
    reversedAt: null,
    metadata: a.metadata ?? {},
  };
  const transfer = payoutCreation(a.amountKobo, accountsOf(client, a.walletId));
  const event = eventWrites({ clientId: client.id, type: 'payout.created', data: { actor: a.milestoneId ? 'system' : 'client', automatic: Boolean(a.milestoneId), payout: payoutFields(row) }, now: a.now });
  return {
    row,
    transfer: { clientId: client.id, transfer, payoutId: row.id, description: `Payout ${reference} to ${a.account.accountName}`, now: a.now },
    writes: [
      sql`insert into payouts (id, client_id, reference, user_id, wallet_id, bank_account_id, account_number, account_name, bank_code, amount_kobo, status,
        provider, provider_reference, milestone_id, sent_at, due_at, metadata, created_at, updated_at)
        values (${row.id}::uuid, ${row.clientId}::uuid, ${row.reference}, ${row.userId}::uuid, ${row.walletId}::uuid, ${row.bankAccountId}::uuid, ${row.accountNumber},
        ${row.accountName}, ${row.bankCode}, ${row.amountKobo}::bigint, ${row.status}, ${row.provider}, ${row.providerReference}, ${row.milestoneId}::uuid,
        ${row.sentAt?.toISOString() ?? null}::timestamptz, ${row.dueAt!.toISOString()}::timestamptz, ${JSON.stringify(row.metadata)}::jsonb, ${a.now.toISOString()}::timestamptz, ${a.now.toISOString()}::timestamptz)`,
      ...event.writes,
    ],
  };
}

/** A payout to write beside the release that starts it: its transfer (netted with the release's) and its rows. */
export type AutoPayout = { transfer: TransferInput; writes: Write[] };

/**
 * auto_payout (docs/decisions.md §11): the payout a release to the seller starts, in the release's own statement,
 * when the client has it on and the seller has a saved account. A live client without a provider keeps
 * the money in the wallet, where a payout can be asked for once one is configured.
 */
/** Whether the client's releases start payouts (auto_payout): in live mode only with a provider to pay them. */
export function startsAutoPayouts(client: Pick<ClientRow, 'autoPayout' | 'mode'>): boolean {
  return client.autoPayout && (client.mode !== 'live' || liveProvider() !== undefined);
}

export async function autoPayoutOf(
  tx: Tx,
  client: ClientRow,
  a: { sellerUserId: string; sellerWalletId: string; release: Transfer; milestoneId: string; now: Date },
): Promise<AutoPayout | undefined> {
  if (!startsAutoPayouts(client)) return undefined;
  const credit = netMovements(a.release).get(a.sellerWalletId) ?? 0;
  if (credit <= 0) return undefined;
  const account = await payoutAccountOf(tx, client.id, a.sellerUserId);
  if (!account) return undefined;
  const { transfer, writes } = payoutCreationWrites(client, { userId: a.sellerUserId, walletId: a.sellerWalletId, account, amountKobo: credit, milestoneId: a.milestoneId, now: a.now });
  return { transfer, writes };
}

/** The account a payout goes to: the one named, or the user's most recently saved; none is 409 NO_BANK_ACCOUNT. */
export async function payoutAccountOf(db: DbOrTx, clientId: string, userId: string, bankAccountId?: string): Promise<BankAccountRow | undefined> {
  const [account] = await db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.clientId, clientId), eq(bankAccounts.userId, userId), isNull(bankAccounts.removedAt), bankAccountId ? eq(bankAccounts.id, bankAccountId) : undefined))
    .orderBy(desc(bankAccounts.createdAt), desc(bankAccounts.id))
    .limit(1);
  return account;
}

/** POST /v1/payouts (docs/decisions.md §11). */
export async function createPayout(db: Db, client: ClientRow, body: CreatePayoutBody, now: Date): Promise<PayoutRecord> {
  moneyProviderFor(client);
  const parsed = parseNaira(body.amount);
  if (!parsed.ok) throw new AppError('VALIDATION_ERROR', `amount ${parsed.reason}`, [{ field: 'amount', message: parsed.reason }]);
  return db.transaction(async (tx) => {
    const user = await findUser(tx, client.id, body.user_id);
    const wallet = await loadWallet(tx, user.id);
    if (!wallet) throw notFound('Wallet of user', user.id);
    const account = await payoutAccountOf(tx, client.id, user.id, body.bank_account_id);
    if (!account) {
      if (body.bank_account_id) throw notFound(`Bank account of user ${user.id}`, body.bank_account_id);
      throw new AppError('NO_BANK_ACCOUNT', `User ${user.id} has no saved bank account to pay out to: save one with POST /v1/wallets/banks/disbursement.`);
    }
    const balances = await lockLedgerAccounts(tx, [wallet.wallet.id, client.payoutsAccountId]);
    const balance = balances.get(wallet.wallet.id) ?? 0;
    if (balance < parsed.kobo) {
      throw new AppError('INSUFFICIENT_FUNDS', `The wallet holds ${formatNaira(balance)}, less than the payout of ${formatNaira(parsed.kobo)}.`);
    }
    const { row, transfer, writes } = payoutCreationWrites(client, { userId: user.id, walletId: wallet.wallet.id, account, amountKobo: parsed.kobo, metadata: metadataToStore(body.metadata), now });
    await runAsOneStatement(tx, 'create_payout', [...transferWrites(transfer), ...writes]);
    return payoutRecord(tx, row);
  });
}

export async function getPayout(db: Db, client: ClientRow, payoutId: string): Promise<PayoutRecord> {
  const [row] = await db.select().from(payouts).where(and(eq(payouts.id, payoutId), eq(payouts.clientId, client.id)));
  if (!row) throw notFound('Payout', payoutId);
  return payoutRecord(db, row);
}

/** GET /v1/payouts: newest first, paginated like the user list. */
export async function listPayouts(db: Db, client: ClientRow, q: ListPayoutsQuery) {
  const term = containsPattern(q.search);
  const userId = q.user_id ? await userIdOfFilter(db, client.id, q.user_id) : undefined;
  const where = and(
    eq(payouts.clientId, client.id),
    userId ? eq(payouts.userId, userId) : undefined,
    q.status ? eq(payouts.status, q.status) : undefined,
    term ? or(ilike(payouts.reference, term), ilike(payouts.accountName, term), ilike(payouts.accountNumber, term)) : undefined,
    createdWithin(payouts.createdAt, q.created_from, q.created_to),
    amountWithin(payouts.amountKobo, q.amount_min, q.amount_max),
  );
  checkPageRequest(q);
  if (q.after !== undefined) await requireCursorRow(db, payouts, eq(payouts.clientId, client.id), q.after, 'Payout');
  const filteredOnlyByEquality = !term && !q.created_from && !q.created_to && q.amount_min === undefined && q.amount_max === undefined;
  const kept = filteredOnlyByEquality ? ({ list: 'payouts', scope: client.id, filters: { status: q.status, user: userId } } as const) : undefined;
  const [read, total] = await Promise.all([
    db
      .select({ payout: payouts, user: users })
      .from(payouts)
      .innerJoin(users, eq(users.id, payouts.userId))
      .where(q.after === undefined ? where : and(where, followingRow(payouts, 'DESC', q.after)))
      .orderBy(desc(payouts.createdAt), desc(payouts.id))
      .limit(q.limit + 1)
      .offset(q.after === undefined ? (q.page - 1) * q.limit : 0),
    exactTotal(db, kept, payouts, where),
  ]);
  const { page: rows, nextAfter } = pageAndNext(read, q.limit, (r) => r.payout.id);
  const records = await payoutRecords(db, rows.map((r) => r.payout));
  return {
    payouts: records.map((record, i) => ({ ...record, user: userRecord(rows[i]!.user) })),
    pagination: pagination(q.page, q.limit, total, nextAfter, q.after !== undefined),
  };
}

export type ProviderNote = {
  provider: 'sandbox' | 'paystack';
  /** One per provider outcome: a repeat finds it recorded and changes nothing. */
  eventKey: string;
  data: unknown;
};

/**
 * Moves a payout to `to` with the transfer that puts its money where the status says and the event, all
 * in the caller's database transaction, once: the update is guarded by the statuses that may precede
 * `to`, so a repeated or late outcome (a webhook twice, a requery racing it) finds nothing to move and
 * returns undefined. `note` records the provider's word for reconciliation, linked to the transfer.
 */
export async function movePayout(
  tx: Tx,
  client: ClientRow,
  a: { payoutId: string; to: PayoutStatus; now: Date; reason?: string; providerReference?: string; dueAt?: Date | null; note?: ProviderNote },
): Promise<PayoutRow | undefined> {
  const [payout] = await tx.select().from(payouts).where(and(eq(payouts.id, a.payoutId), eq(payouts.clientId, client.id))).for('update');
  if (!payout || !canMovePayout(payout.status, a.to)) return undefined;
  const stamp = a.to === 'PAID' ? { paidAt: a.now } : a.to === 'FAILED' ? { failedAt: a.now } : a.to === 'REVERSED' ? { reversedAt: a.now } : {};
  const row: PayoutRow = {
    ...payout,
    status: a.to,
    updatedAt: a.now,
    ...stamp,
    ...(a.reason !== undefined ? { failureReason: a.reason } : {}),
    ...(a.providerReference ? { providerReference: a.providerReference } : {}),
    // Only a payout still with the provider has a next time to look at it.
    dueAt: a.to === 'PROCESSING' ? (a.dueAt ?? payout.dueAt) : null,
  };
  const transfer = payoutTransfer(payout.status, a.to, row.amountKobo, accountsOf(client, row.walletId));
  const transferId = uuidv7();
  const writes: Write[] = [
    tx
      .update(payouts)
      .set({ status: row.status, updatedAt: row.updatedAt, paidAt: row.paidAt, failedAt: row.failedAt, reversedAt: row.reversedAt, failureReason: row.failureReason, providerReference: row.providerReference, dueAt: row.dueAt })
      .where(eq(payouts.id, row.id)),
  ];
  if (transfer) {
    await lockLedgerAccounts(tx, transfer.postings.map((p) => p.accountId));
    const what = a.to === 'PAID' ? 'paid' : a.to === 'FAILED' ? 'failed, returned to the wallet' : 'reversed by the bank, returned to the wallet';
    writes.push(...transferWrites({ id: transferId, clientId: client.id, transfer, payoutId: row.id, description: `Payout ${row.reference} ${what}`, now: a.now }));
  }
  if (a.note) writes.push(providerEventWrite(a.note, { kind: kindOf(a.to), reference: row.reference, amountKobo: row.amountKobo, clientId: client.id, payoutId: row.id, ledgerTransferId: transfer ? transferId : null, now: a.now }));
  if (a.to === 'PAID' || a.to === 'FAILED' || a.to === 'REVERSED') {
    writes.push(...eventWrites({ clientId: client.id, type: EVENT_OF[a.to], data: { actor: 'system', automatic: true, payout: payoutFields(row) }, now: a.now }).writes);
  }
  await runAsOneStatement(tx, 'move_payout', writes);
  return row;
}

function kindOf(to: PayoutStatus): 'payout_paid' | 'payout_failed' | 'payout_reversed' {
  if (to === 'PAID') return 'payout_paid';
  if (to === 'REVERSED') return 'payout_reversed';
  return 'payout_failed';
}

/** A provider's word, kept once per event key (the insert of a repeat does nothing). */
export function providerEventWrite(
  note: ProviderNote,
  a: {
    kind: 'payout_paid' | 'payout_failed' | 'payout_reversed' | 'funding' | 'checkout_paid';
    reference: string;
    amountKobo: number | null;
    clientId?: string | null;
    payoutId?: string | null;
    walletId?: string | null;
    checkoutId?: string | null;
    ledgerTransferId: string | null;
    now: Date;
  },
): Write {
  return sql`insert into provider_events (id, provider, event_key, kind, reference, amount_kobo, client_id, payout_id, wallet_id, checkout_id, ledger_transfer_id, data, received_at)
    values (${uuidv7()}::uuid, ${note.provider}, ${note.eventKey}, ${a.kind}, ${a.reference}, ${a.amountKobo}::bigint, ${a.clientId ?? null}::uuid, ${a.payoutId ?? null}::uuid,
      ${a.walletId ?? null}::uuid, ${a.checkoutId ?? null}::uuid, ${a.ledgerTransferId}::uuid, ${JSON.stringify(note.data)}::jsonb, ${a.now.toISOString()}::timestamptz)
    on conflict (provider, event_key) do nothing`;
}

/** The sandbox's test helpers (docs/decisions.md §11): test keys only; a payout in another state is 409. */
export async function failOrReverseSandboxPayout(db: Db, client: ClientRow, payoutId: string, to: 'FAILED' | 'REVERSED', reason: string | undefined, now: Date) {
  if (client.mode !== 'test') throw new AppError('LIVE_MODE_FORBIDDEN', 'Payout test helpers work only with test keys.');
  return db.transaction(async (tx) => {
    const [payout] = await tx.select().from(payouts).where(and(eq(payouts.id, payoutId), eq(payouts.clientId, client.id))).for('update');
    if (!payout) throw notFound('Payout', payoutId);
    if (!canMovePayout(payout.status, to)) {
      const may = to === 'FAILED' ? 'PENDING or PROCESSING' : 'PAID';
      throw new AppError('INVALID_STATE', `Payout ${payout.reference} is ${payout.status}: only a ${may} payout can be made ${to}.`);
    }
    const why = reason ?? (to === 'FAILED' ? 'The bank declined the transfer (sandbox).' : 'The bank returned the payment (sandbox).');
    const moved = await movePayout(tx, client, {
      payoutId,
      to,
      now,
      reason: why,
      note: { provider: 'sandbox', eventKey: `${to.toLowerCase()}:${payout.reference}`, data: { helper: to, reason: why } },
    });
    return payoutRecord(tx, moved!);
  });
}
