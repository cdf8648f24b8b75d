import 'server-only';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type {
  MilestoneInTransactionRecord,
  MilestoneRecord,
  MilestoneWithLogsRecord,
  TransactionRecord,
  TransactionWithMilestonesRecord,
} from '@/lib/contracts/records';
import { milestoneDeadlines } from '@/lib/escrow/deadlines';
import type { CommissionPayer } from '@/lib/escrow/fees';
import { allowedMilestoneActions, type MilestoneStatus, type TransactionStatus } from '@/lib/escrow/milestone-machine';
import { koboToNaira } from '@/lib/escrow/money';
import type { DbOrTx } from '../db/client';
import { reusableQuery, UNNAMED } from '../db/reusable-query';
import { disputes, ledgerAccounts, milestoneEscrows, milestoneLogs, milestones, organisations, parties, transactions, users } from '../db/schema';
import { iso, isoOrNull } from './iso';
import { loadParties, partyRecord, type PartyGraph } from './people';

export type TransactionRow = typeof transactions.$inferSelect;
export type MilestoneRow = typeof milestones.$inferSelect;
export type MilestoneLogRow = typeof milestoneLogs.$inferSelect;
export type EscrowView = { id: string; balanceKobo: number; createdAt: Date; updatedAt: Date };
export type MilestoneWithEscrow = { milestone: MilestoneRow; escrow: EscrowView };

export type TransactionGraph = {
  transaction: TransactionRow;
  milestones: MilestoneWithEscrow[];
  buyer: PartyGraph;
  seller: PartyGraph;
};

/**
 * The milestones of one transaction with their escrows, and each milestone's dispute (a milestone has at
 * most one) as far as its deadlines go. `transactionOf` says which transaction.
 */
function milestonesWithEscrowsWhere(db: DbOrTx, transactionOf: SQL) {
  return db
    .select({
      milestone: milestones,
      escrowId: milestoneEscrows.id,
      escrowCreatedAt: milestoneEscrows.createdAt,
      escrowUpdatedAt: ledgerAccounts.updatedAt,
      balanceKobo: ledgerAccounts.balanceKobo,
      dispute: {
        id: disputes.id,
        milestoneId: disputes.milestoneId,
        status: disputes.status,
        intraPartyMediationEndDate: disputes.intraPartyMediationEndDate,
        evidenceSubmissionEndDate: disputes.evidenceSubmissionEndDate,
        isBuyerEvidenceSubmitted: disputes.isBuyerEvidenceSubmitted,
        isSellerEvidenceSubmitted: disputes.isSellerEvidenceSubmitted,
      },
    })
    .from(milestones)
    .innerJoin(milestoneEscrows, eq(milestoneEscrows.milestoneId, milestones.id))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, milestoneEscrows.id))
    .leftJoin(disputes, eq(disputes.milestoneId, milestones.id))
    .where(eq(milestones.transactionId, transactionOf))
    .orderBy(asc(milestones.position))
    .prepare(UNNAMED);
}

const milestonesOfTransactionQuery = reusableQuery((db) => milestonesWithEscrowsWhere(db, sql`${sql.placeholder('transactionId')}`));
/** By one of its milestones, so that it can be sent before the statement that finds the transaction has answered. */
const milestonesBesideMilestoneQuery = reusableQuery((db) =>
  milestonesWithEscrowsWhere(db, sql`(select sibling.transaction_id from ${milestones} sibling where sibling.id = ${sql.placeholder('milestoneId')})`),
);

type MilestoneWithEscrowRow = Awaited<ReturnType<ReturnType<typeof milestonesOfTransactionQuery>['execute']>>[number];

function withEscrow(r: MilestoneWithEscrowRow): MilestoneWithEscrow {
  return { milestone: r.milestone, escrow: { id: r.escrowId, balanceKobo: r.balanceKobo, createdAt: r.escrowCreatedAt, updatedAt: r.escrowUpdatedAt } };
}

/** A dispute's fields that its deadlines read (lib/escrow/deadlines.ts). */
export type DisputeClockRow = NonNullable<MilestoneWithEscrowRow['dispute']>;
/** A transaction's milestones and their disputes: what the lapse engine judges. */
export type MilestonesAndDisputes = { milestones: MilestoneWithEscrow[]; disputes: DisputeClockRow[] };

function milestonesAndDisputes(rows: MilestoneWithEscrowRow[]): MilestonesAndDisputes {
  return { milestones: rows.map(withEscrow), disputes: rows.flatMap((r) => (r.dispute ? [r.dispute] : [])) };
}

export async function loadMilestonesWithEscrows(db: DbOrTx, transactionId: string): Promise<MilestoneWithEscrow[]> {
  const rows = await milestonesOfTransactionQuery(db).execute({ transactionId });
  return rows.map(withEscrow);
}

/** The milestones and disputes of a transaction; read under the transaction's row lock, they are current. */
export async function loadMilestonesAndDisputes(db: DbOrTx, transactionId: string): Promise<MilestonesAndDisputes> {
  return milestonesAndDisputes(await milestonesOfTransactionQuery(db).execute({ transactionId }));
}

/** loadMilestonesAndDisputes by one of the transaction's milestones. */
export async function loadMilestonesAndDisputesOfMilestone(tx: DbOrTx, milestoneId: string): Promise<MilestonesAndDisputes> {
  return milestonesAndDisputes(await milestonesBesideMilestoneQuery(tx).execute({ milestoneId }));
}

const buyerParty = alias(parties, 'buyer_party');
const buyerUser = alias(users, 'buyer_user');
const buyerOrganisation = alias(organisations, 'buyer_organisation');
const sellerParty = alias(parties, 'seller_party');
const sellerUser = alias(users, 'seller_user');
const sellerOrganisation = alias(organisations, 'seller_organisation');

/** A transaction of one of this client's milestones, with its buyer and seller, in one statement. */
function selectTransactionWithParties(db: DbOrTx) {
  return db
    .select({ transaction: transactions, buyerParty, buyerUser, buyerOrganisation, sellerParty, sellerUser, sellerOrganisation })
    .from(transactions)
    .innerJoin(milestones, eq(milestones.transactionId, transactions.id))
    .innerJoin(buyerParty, eq(buyerParty.id, transactions.buyerPartyId))
    .innerJoin(buyerUser, eq(buyerUser.id, buyerParty.userId))
    .innerJoin(buyerOrganisation, eq(buyerOrganisation.id, buyerParty.organisationId))
    .innerJoin(sellerParty, eq(sellerParty.id, transactions.sellerPartyId))
    .innerJoin(sellerUser, eq(sellerUser.id, sellerParty.userId))
    .innerJoin(sellerOrganisation, eq(sellerOrganisation.id, sellerParty.organisationId))
    .where(and(eq(milestones.id, sql.placeholder('milestoneId')), eq(milestones.clientId, sql.placeholder('clientId'))))
    .limit(1);
}

const lockTransactionWithPartiesQuery = reusableQuery((db) => selectTransactionWithParties(db).for('update', { of: transactions }).prepare(UNNAMED));
const transactionWithPartiesQuery = reusableQuery((db) => selectTransactionWithParties(db).prepare(UNNAMED));

type TransactionWithPartiesRow = Awaited<ReturnType<ReturnType<typeof transactionWithPartiesQuery>['execute']>>[number];

function transactionWithParties(row: TransactionWithPartiesRow): Omit<TransactionGraph, 'milestones'> {
  return {
    transaction: row.transaction,
    buyer: { party: row.buyerParty, user: row.buyerUser, organisation: row.buyerOrganisation },
    seller: { party: row.sellerParty, user: row.sellerUser, organisation: row.sellerOrganisation },
  };
}

/**
 * Locks the transaction of one of this client's milestones (FOR UPDATE) and reads its buyer and seller in
 * the same statement. Only the transaction row is locked and re-read after a wait; the parties of a
 * transaction never change, so their rows need neither.
 */
export async function lockTransactionWithParties(
  tx: DbOrTx,
  clientId: string,
  milestoneId: string,
): Promise<Omit<TransactionGraph, 'milestones'> | undefined> {
  const [row] = await lockTransactionWithPartiesQuery(tx).execute({ clientId, milestoneId });
  return row && transactionWithParties(row);
}

/**
 * A milestone's whole graph as a reader sees it, without locks: the transaction with its parties first
 * (which also says whether the milestone is this client's), then its milestones. Undefined when it is not
 * this client's milestone.
 */
export async function readGraphOfMilestone(db: DbOrTx, clientId: string, milestoneId: string): Promise<TransactionGraph | undefined> {
  const [row] = await transactionWithPartiesQuery(db).execute({ clientId, milestoneId });
  if (!row) return undefined;
  return { ...transactionWithParties(row), milestones: await loadMilestonesWithEscrows(db, row.transaction.id) };
}

/** Loads a transaction of this client with its milestones, escrows and parties; undefined when it is not this client's. */
export async function loadTransactionGraph(db: DbOrTx, clientId: string, transactionId: string): Promise<TransactionGraph | undefined> {
  const [transaction] = await db
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, transactionId), eq(transactions.clientId, clientId)))
    .limit(1);
  if (!transaction) return undefined;
  return graphOfTransaction(db, transaction);
}

/** The rest of a transaction's graph, for a transaction row already read (and perhaps locked). */
async function graphOfTransaction(db: DbOrTx, transaction: TransactionRow): Promise<TransactionGraph> {
  const [ms, people] = await Promise.all([
    loadMilestonesWithEscrows(db, transaction.id),
    loadParties(db, [transaction.buyerPartyId, transaction.sellerPartyId]),
  ]);
  const buyer = people.get(transaction.buyerPartyId);
  const seller = people.get(transaction.sellerPartyId);
  if (!buyer || !seller) throw new Error(`transaction ${transaction.id} has no parties`);
  return { transaction, milestones: ms, buyer, seller };
}

// Log ids are UUIDv7: written order, even for lines stamped with the same time (a request's clock is one instant).
const milestoneLogsQuery = reusableQuery((db) =>
  db.select().from(milestoneLogs).where(eq(milestoneLogs.milestoneId, sql.placeholder('milestoneId'))).orderBy(asc(milestoneLogs.id)).prepare(UNNAMED),
);

export async function loadMilestoneLogs(db: DbOrTx, milestoneId: string): Promise<MilestoneLogRow[]> {
  return milestoneLogsQuery(db).execute({ milestoneId });
}

export function transactionRecord(t: TransactionRow): TransactionRecord {
  return {
    id: t.id,
    title: t.title,
    description: t.description,
    currency: 'NGN',
    location_type: t.locationType,
    category: t.category,
    sub_category: t.subCategory,
    transaction_contract_url: t.transactionContractUrl ?? '',
    status: t.status as TransactionStatus,
    transaction_originator: t.transactionOriginator,
    buyer_id: t.buyerPartyId,
    seller_id: t.sellerPartyId,
    source: t.source,
    clientId: t.clientId,
    transaction_amount: koboToNaira(t.transactionAmountKobo),
    total_amount_funded: koboToNaira(t.totalAmountFundedKobo),
    total_amount_refunded: koboToNaira(t.totalAmountRefundedKobo),
    total_amount_disbursed: koboToNaira(t.totalAmountDisbursedKobo),
    current_milestone_id: t.currentMilestoneId ?? '',
    job_id: t.jobId,
    decline_reason: t.declineReason,
    is_completed: t.isCompleted,
    has_buyer_rated: t.hasBuyerRated,
    has_seller_rated: t.hasSellerRated,
    on_last_milestone: t.onLastMilestone,
    discount_code: t.discountCode,
    declined_at: isoOrNull(t.declinedAt),
    approved_at: isoOrNull(t.approvedAt),
    date_canceled: isoOrNull(t.dateCanceled),
    commission_payer: t.commissionPayer as CommissionPayer,
    created_by: t.clientId,
    updated_by: t.updatedBy,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
  };
}

export function milestoneLogRecord(l: MilestoneLogRow) {
  return {
    id: l.id,
    log_message: l.logMessage,
    milestone_id: l.milestoneId,
    actor: l.actor,
    is_automatic: l.isAutomatic,
    created_at: iso(l.createdAt),
    updated_at: iso(l.updatedAt),
  };
}

function milestoneFields(entry: MilestoneWithEscrow, siblings: MilestoneWithEscrow[]): z.infer<typeof MilestoneInTransactionRecord> {
  const m = entry.milestone;
  const state = (x: MilestoneRow) => ({ id: x.id, status: x.status as MilestoneStatus, position: x.position });
  return {
    id: m.id,
    title: m.title,
    description: m.description,
    amount: koboToNaira(m.amountKobo),
    is_milestone_funded: m.isMilestoneFunded,
    position_in_transaction: m.position,
    is_delivered: m.isDelivered,
    is_completed: m.isCompleted,
    delivery_rejection_reason: m.deliveryRejectionReason,
    is_delivery_rejected: m.isDeliveryRejected,
    is_return_proof_sent: m.isReturnProofSent,
    is_return_approved: m.isReturnApproved,
    is_return_rejected: m.isReturnRejected,
    due_date_type: 'DEADLINE_DATE',
    due_date: iso(m.dueDate),
    execution_timeline: m.executionTimeline,
    status: m.status as MilestoneStatus,
    commission_payer: m.commissionPayer as CommissionPayer,
    discount_code: m.discountCode,
    milestone_fee: koboToNaira(m.feeKobo),
    transaction_id: m.transactionId,
    inspection_duration: m.inspectionDuration,
    inspection_end_date: isoOrNull(m.inspectionEndDate),
    return_deadline_date: isoOrNull(m.returnDeadlineDate),
    current_extension_index: m.currentExtensionIndex,
    milestone_escrow_id: entry.escrow.id,
    rate_used: m.rateUsed / 100,
    proofs_of_completion: m.proofsOfCompletion,
    proofs_of_return: m.proofsOfReturn,
    allowed_actions: allowedMilestoneActions(state(m), siblings.map((s) => state(s.milestone))),
    deadlines: milestoneDeadlines({
      status: m.status as MilestoneStatus,
      inspectionEndDate: m.inspectionEndDate,
      returnDeadlineDate: m.returnDeadlineDate,
    }).map((d) => ({ ...d, due_at: iso(d.due_at) })),
    milestone_escrow: {
      id: entry.escrow.id,
      balance: koboToNaira(entry.escrow.balanceKobo),
      created_at: iso(entry.escrow.createdAt),
      updated_at: iso(entry.escrow.updatedAt),
    },
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
  };
}

export function transactionWithMilestonesRecord(g: TransactionGraph): TransactionWithMilestonesRecord {
  return {
    ...transactionRecord(g.transaction),
    buyer: partyRecord(g.buyer),
    seller: partyRecord(g.seller),
    milestones: g.milestones.map((entry) => milestoneFields(entry, g.milestones)),
  };
}

export function milestoneRecord(g: TransactionGraph, milestoneId: string): MilestoneRecord {
  const entry = g.milestones.find((e) => e.milestone.id === milestoneId);
  if (!entry) throw new Error(`milestone ${milestoneId} is not in transaction ${g.transaction.id}`);
  return {
    ...milestoneFields(entry, g.milestones),
    transaction: { ...transactionRecord(g.transaction), buyer: partyRecord(g.buyer), seller: partyRecord(g.seller) },
  };
}

export function milestoneWithLogsRecord(g: TransactionGraph, milestoneId: string, logs: MilestoneLogRow[]): MilestoneWithLogsRecord {
  return { ...milestoneRecord(g, milestoneId), milestone_logs: logs.map(milestoneLogRecord) };
}

export function findMilestone(g: TransactionGraph, milestoneId: string): MilestoneWithEscrow {
  const entry = g.milestones.find((e) => e.milestone.id === milestoneId);
  if (!entry) throw new Error(`milestone ${milestoneId} is not in transaction ${g.transaction.id}`);
  return entry;
}
