import 'server-only';
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DisputeRecord, DisputeWithPartiesRecord, MilestoneDisputeSummaryRecord } from '@/lib/contracts/records';
import type { TurnsDispute } from '@/lib/escrow/turns';
import { disputeDeadlines } from '@/lib/escrow/deadlines';
import { allowedDisputeActions, type DisputeAmountStatus, type DisputeStatus } from '@/lib/escrow/dispute-machine';
import type { CommissionPayer } from '@/lib/escrow/fees';
import { maxSellerPayment } from '@/lib/escrow/ledger';
import { koboToNaira } from '@/lib/escrow/money';
import type { DbOrTx } from '../db/client';
import { followingRow, pageAndNext } from '../db/paged-list';
import { clients, disputeEvidence, disputeProposals, disputes, files, ledgerAccounts, milestoneEscrows, milestones, parties, transactions } from '../db/schema';
import { settlementTerms } from './transaction-graph/domain';
import { iso, isoOrNull } from './iso';
import { partyWithoutOrganisation } from './people';
import { findMilestone, type MilestoneLogRow, type TransactionGraph } from './transaction-graph/queries';
import { milestoneLogRecord, milestoneRecord, partyUserIdsOf, transactionRecord, type PartyUserIds } from './transaction-graph/present';

export type DisputeRow = typeof disputes.$inferSelect;
export type ProposalRow = typeof disputeProposals.$inferSelect;

export async function loadProposals(db: DbOrTx, disputeIds: string[]): Promise<Map<string, ProposalRow[]>> {
  const byDispute = new Map<string, ProposalRow[]>(disputeIds.map((id) => [id, []]));
  if (disputeIds.length === 0) return byDispute;
  const rows = await db
    .select()
    .from(disputeProposals)
    .where(inArray(disputeProposals.disputeId, disputeIds))
    .orderBy(asc(disputeProposals.createdAt), asc(sql`${disputeProposals.id}`))
    .prepare('dispute_proposals')
    .execute();
  for (const row of rows) byDispute.get(row.disputeId)?.push(row);
  return byDispute;
}

export type EvidenceView = {
  row: typeof disputeEvidence.$inferSelect;
  files: Array<Pick<typeof files.$inferSelect, 'id' | 'filename' | 'contentType' | 'size' | 'sha256'>>;
};

export async function loadEvidence(db: DbOrTx, disputeIds: string[]): Promise<Map<string, EvidenceView[]>> {
  const byDispute = new Map<string, EvidenceView[]>(disputeIds.map((id) => [id, []]));
  if (disputeIds.length === 0) return byDispute;
  const rows = await db
    .select()
    .from(disputeEvidence)
    .where(inArray(disputeEvidence.disputeId, disputeIds))
    .orderBy(asc(disputeEvidence.createdAt), asc(disputeEvidence.id))
    .prepare('dispute_evidence')
    .execute();
  const fileIds = [...new Set(rows.flatMap((r) => r.fileIds))];
  const stored = fileIds.length
    ? await db
        .select({ id: files.id, filename: files.filename, contentType: files.contentType, size: files.size, sha256: files.sha256 })
        .from(files)
        .where(inArray(files.id, fileIds))
        .prepare('evidence_files')
        .execute()
    : [];
  const byId = new Map(stored.map((f) => [f.id, f]));
  for (const row of rows) {
    byDispute.get(row.disputeId)?.push({ row, files: row.fileIds.flatMap((id) => byId.get(id) ?? []) });
  }
  return byDispute;
}

export async function findDispute(db: DbOrTx, clientId: string, disputeId: string): Promise<DisputeRow | undefined> {
  const [row] = await db
    .select()
    .from(disputes)
    .where(and(eq(disputes.id, disputeId), eq(disputes.clientId, clientId)))
    .limit(1)
    .prepare('find_dispute')
    .execute();
  return row;
}

export function disputeRecord(
  d: DisputeRow,
  users: PartyUserIds,
  proposals: ProposalRow[],
  maxAmountKobo: number,
  evidence: EvidenceView[],
  baseUrl: string,
): DisputeRecord {
  const state = { status: d.status as DisputeStatus, amountStatus: d.disputeAmountStatus as DisputeAmountStatus };
  return {
    id: d.id,
    dispute_code: d.disputeCode,
    description: d.description,
    buyer_id: d.buyerPartyId,
    seller_id: d.sellerPartyId,
    buyer_user_id: users.buyerUserId,
    seller_user_id: users.sellerUserId,
    milestone_id: d.milestoneId,
    status: state.status,
    dispute_amount_status: state.amountStatus,
    dispute_amount: koboToNaira(d.disputeAmountKobo),
    counter_offer_amount: d.counterOfferAmountKobo === null ? null : koboToNaira(d.counterOfferAmountKobo),
    is_buyer_evidence_submitted: d.isBuyerEvidenceSubmitted,
    is_seller_evidence_submitted: d.isSellerEvidenceSubmitted,
    intra_party_mediation_end_date: iso(d.intraPartyMediationEndDate),
    evidence_submission_end_date: isoOrNull(d.evidenceSubmissionEndDate),
    evidence_extended_by: d.evidenceExtendedBy,
    cancellation_agreement_details: d.cancellationAgreementDetails,
    canceled_by: d.canceledBy,
    opened_by: d.openedBy,
    created_by: d.clientId,
    allowed_actions: allowedDisputeActions(state, d.evidenceExtendedBy),
    deadlines: disputeDeadlines({ ...d, status: state.status }).map((x) => ({ ...x, due_at: iso(x.due_at) })),
    proposals: proposals.map((p) => ({
      id: p.id,
      amount: koboToNaira(p.amountKobo),
      proposed_by: p.proposedBy,
      status: p.status,
      rejection_reason: p.rejectionReason,
      decided_at: isoOrNull(p.decidedAt),
      created_at: iso(p.createdAt),
    })),
    max_dispute_amount: koboToNaira(maxAmountKobo),
    escalated_at: isoOrNull(d.escalatedAt),
    escalated_by: d.escalatedBy as DisputeRecord['escalated_by'],
    resolution: d.resolution as DisputeRecord['resolution'],
    verdict_seller_amount: d.verdictSellerAmountKobo === null ? null : koboToNaira(d.verdictSellerAmountKobo),
    verdict_reason: d.verdictReason,
    resolved_at: isoOrNull(d.resolvedAt),
    evidence: evidence.map((e) => ({
      id: e.row.id,
      party: e.row.party,
      text: e.row.text,
      files: e.files.map((f) => ({ id: f.id, url: `${baseUrl}/v1/files/${f.id}`, filename: f.filename, content_type: f.contentType, size: f.size, sha256: f.sha256 })),
      created_at: iso(e.row.createdAt),
    })),
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
  };
}

/** The disputes whose turns run now (lib/escrow/turns.ts): those in mediation or evidence. */
export const DISPUTES_TAKING_TURNS: readonly string[] = ['INTRA_PARTY_MEDIATION', 'EVIDENCE_SUBMISSION'];

/**
 * The disputes of these transactions' milestones (a milestone has at most one), with the transaction each is of, in
 * one statement; `takingTurns`: only those whose turns run now.
 */
export async function disputesOfTransactions(db: DbOrTx, transactionIds: string[], takingTurns: boolean): Promise<Array<{ transactionId: string; dispute: DisputeRow }>> {
  if (transactionIds.length === 0) return [];
  return db
    .select({ transactionId: milestones.transactionId, dispute: disputes })
    .from(disputes)
    .innerJoin(milestones, eq(milestones.id, disputes.milestoneId))
    .where(and(inArray(milestones.transactionId, transactionIds), takingTurns ? inArray(disputes.status, [...DISPUTES_TAKING_TURNS]) : undefined))
    .prepare(takingTurns ? 'disputes_taking_turns_of_transactions' : 'disputes_of_transactions')
    .execute();
}

/** A dispute's columns that whose-turn reads (disputeTurnsOf): its state, its evidence and its clock. */
export const TURN_DISPUTE_KEYS = [
  'id',
  'milestoneId',
  'status',
  'disputeAmountStatus',
  'isBuyerEvidenceSubmitted',
  'isSellerEvidenceSubmitted',
  'evidenceExtendedBy',
  'intraPartyMediationEndDate',
  'evidenceSubmissionEndDate',
  'declinedRefundDueAt',
] as const;

export type TurnDisputeRow = Pick<DisputeRow, (typeof TURN_DISPUTE_KEYS)[number]>;

/** A dispute as the whose-turn rules read it (from its whole row, or a TurnDisputeRow). */
export function disputeTurnsOf(d: TurnDisputeRow): TurnsDispute {
  const status = d.status as DisputeStatus;
  return {
    id: d.id,
    milestone_id: d.milestoneId,
    status,
    dispute_amount_status: d.disputeAmountStatus,
    is_buyer_evidence_submitted: d.isBuyerEvidenceSubmitted,
    is_seller_evidence_submitted: d.isSellerEvidenceSubmitted,
    allowed_actions: allowedDisputeActions({ status, amountStatus: d.disputeAmountStatus as DisputeAmountStatus }, d.evidenceExtendedBy),
    deadlines: disputeDeadlines({ ...d, status }).map((x) => ({ due_at: iso(x.due_at) })),
  };
}

/** A milestone's dispute summed up (GET /v1/transactions/{id}?include=disputes). */
export function disputeSummaryRecord(d: DisputeRow): MilestoneDisputeSummaryRecord {
  return {
    id: d.id,
    dispute_code: d.disputeCode,
    status: d.status as DisputeStatus,
    resolution: d.resolution as DisputeRecord['resolution'],
    dispute_amount: koboToNaira(d.disputeAmountKobo),
    verdict_seller_amount: d.verdictSellerAmountKobo === null ? null : koboToNaira(d.verdictSellerAmountKobo),
    created_at: iso(d.createdAt),
  };
}

export function maxDisputeAmountKobo(graph: TransactionGraph, milestoneId: string): number {
  return maxSellerPayment(settlementTerms(findMilestone(graph, milestoneId)), graph.transaction.transactionAmountKobo);
}

export function disputeWithPartiesRecord(
  d: DisputeRow,
  proposals: ProposalRow[],
  graph: TransactionGraph,
  logs: MilestoneLogRow[],
  evidence: EvidenceView[],
  baseUrl: string,
): DisputeWithPartiesRecord {
  const { transaction: _nested, ...milestone } = milestoneRecord(graph, d.milestoneId);
  return {
    ...disputeRecord(d, partyUserIdsOf(graph), proposals, maxDisputeAmountKobo(graph, d.milestoneId), evidence, baseUrl),
    buyer: partyWithoutOrganisation(graph.buyer),
    seller: partyWithoutOrganisation(graph.seller),
    milestone: { ...milestone, transaction: transactionRecord(graph.transaction, partyUserIdsOf(graph)), milestone_logs: logs.map(milestoneLogRecord) },
  };
}

/**
 * A page of disputes as records, in one query for the disputes and what `max_dispute_amount` needs
 * (milestone, escrow balance, transaction amount), plus one each for proposals and evidence.
 */
const buyerParty = alias(parties, 'buyer_party');
const sellerParty = alias(parties, 'seller_party');

export async function disputePage(
  db: DbOrTx,
  a: { where: SQL | undefined; page: number; limit: number; after?: string; newestFirst: boolean; baseUrl: string },
): Promise<{ rows: Array<{ record: DisputeRecord; clientId: string; clientName: string }>; total: number; nextAfter: string | null }> {
  const order = a.newestFirst ? [desc(disputes.createdAt), desc(disputes.id)] : [asc(disputes.createdAt), asc(disputes.id)];
  const [read, [total]] = await Promise.all([
    db
      .select({
        dispute: disputes,
        clientName: clients.name,
        amountKobo: milestones.amountKobo,
        feeKobo: milestones.feeKobo,
        commissionPayer: milestones.commissionPayer,
        escrowBalance: ledgerAccounts.balanceKobo,
        transactionAmountKobo: transactions.transactionAmountKobo,
        buyerUserId: buyerParty.userId,
        sellerUserId: sellerParty.userId,
      })
      .from(disputes)
      .innerJoin(clients, eq(clients.id, disputes.clientId))
      .innerJoin(milestones, eq(milestones.id, disputes.milestoneId))
      .innerJoin(transactions, eq(transactions.id, milestones.transactionId))
      .innerJoin(milestoneEscrows, eq(milestoneEscrows.milestoneId, milestones.id))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, milestoneEscrows.id))
      .innerJoin(buyerParty, eq(buyerParty.id, disputes.buyerPartyId))
      .innerJoin(sellerParty, eq(sellerParty.id, disputes.sellerPartyId))
      .where(a.after === undefined ? a.where : and(a.where, followingRow(disputes, a.newestFirst ? 'DESC' : 'ASC', a.after)))
      .orderBy(...order)
      .limit(a.limit + 1)
      .offset(a.after === undefined ? (a.page - 1) * a.limit : 0),
    db.select({ n: count() }).from(disputes).where(a.where),
  ]);
  const { page: rows, nextAfter } = pageAndNext(read, a.limit, (r) => r.dispute.id);
  const ids = rows.map((r) => r.dispute.id);
  const [proposals, evidence] = await Promise.all([loadProposals(db, ids), loadEvidence(db, ids)]);
  return {
    rows: rows.map((r) => ({
      record: disputeRecord(
        r.dispute,
        { buyerUserId: r.buyerUserId, sellerUserId: r.sellerUserId },
        proposals.get(r.dispute.id) ?? [],
        maxSellerPayment(
          { milestoneAmount: r.amountKobo, milestoneFee: r.feeKobo, commissionPayer: r.commissionPayer as CommissionPayer, escrowBalance: r.escrowBalance },
          r.transactionAmountKobo,
        ),
        evidence.get(r.dispute.id) ?? [],
        a.baseUrl,
      ),
      clientId: r.dispute.clientId,
      clientName: r.clientName,
    })),
    total: total?.n ?? 0,
    nextAfter,
  };
}
