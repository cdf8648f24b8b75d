import 'server-only';
import type { z } from 'zod';
import type {
  MilestoneInTransactionRecord,
  MilestoneRecord,
  MilestoneWithLogsRecord,
  TransactionRecord,
  TransactionWithMilestonesRecord,
} from '@/lib/contracts/records';
import { milestoneDeadlines, transactionDeadlines } from '@/lib/escrow/deadlines';
import { allowedExtensionActions } from '@/lib/escrow/extensions';
import type { CommissionPayer } from '@/lib/escrow/fees';
import { allowedMilestoneActions, type MilestoneState, type MilestoneStatus, type TransactionStatus } from '@/lib/escrow/milestone-machine';
import { koboToNaira } from '@/lib/escrow/money';
import { allowedPartialOutcomeActions, owedPartialOutcomeActions, type PartialOutcomeAction } from '@/lib/escrow/partial-outcomes';
import { allowedTransactionActions } from '@/lib/escrow/transaction-actions';
import { iso, isoOrNull } from '../iso';
import { partyRecord } from '../people';
import { endingStateOf, extensionOf, milestoneClockOf, partialAcceptanceOf, partialOutcomeMilestoneOf, transactionClockOf } from './domain';
import type { MilestoneLogRow, MilestoneRow, MilestoneWithEscrow, TransactionGraph, TransactionRow } from './queries';

/** The users behind a record's two parties: records name both ids, since user paths take either (issue #59). */
export type PartyUserIds = { buyerUserId: string; sellerUserId: string };

export function partyUserIdsOf(g: Pick<TransactionGraph, 'buyer' | 'seller'>): PartyUserIds {
  return { buyerUserId: g.buyer.party.userId, sellerUserId: g.seller.party.userId };
}

export function transactionRecord(t: TransactionRow, users: PartyUserIds): TransactionRecord {
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
    buyer_user_id: users.buyerUserId,
    seller_user_id: users.sellerUserId,
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
    cancellation_request: t.cancellationRequest,
    ended_by: t.endedBy,
    end_reason: t.endReason,
    commission_payer: t.commissionPayer as CommissionPayer,
    fee_basis_points: t.feeBasisPoints,
    external_reference: t.externalReference,
    metadata: t.metadata ?? {},
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

function milestoneFields(entry: MilestoneWithEscrow, siblings: readonly MilestoneState[]): z.infer<typeof MilestoneInTransactionRecord> {
  const m = entry.milestone;
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
    metadata: m.metadata ?? {},
    extensions: m.extensions,
    amount_refunded: koboToNaira(m.amountRefundedKobo),
    amount_released: m.amountReleasedKobo === null ? null : koboToNaira(m.amountReleasedKobo),
    partial_acceptance: m.partialAcceptance && {
      release_amount: koboToNaira(m.partialAcceptance.release_amount_kobo),
      refund_amount: koboToNaira(m.partialAcceptance.refund_amount_kobo),
      reason: m.partialAcceptance.reason,
      status: m.partialAcceptance.status,
      proposed_at: m.partialAcceptance.proposed_at,
      answered_at: m.partialAcceptance.answered_at,
      decline_reason: m.partialAcceptance.decline_reason,
    },
    ...milestoneTurnFields(entry, siblings),
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

const milestoneState = (m: Pick<MilestoneRow, 'id' | 'status' | 'position'>): MilestoneState => ({ id: m.id, status: m.status as MilestoneStatus, position: m.position });

/** A milestone's columns that its steps, its due date's and the answers owed on it read, and its deadlines. */
type MilestoneTurnColumns = Pick<
  MilestoneRow,
  'id' | 'status' | 'position' | 'dueDate' | 'extensions' | 'partialAcceptance' | 'inspectionEndDate' | 'returnDeadlineDate' | 'extensionResponseDueAt' | 'disputeOpeningDueAt' | 'partialAcceptanceResponseDueAt'
>;

/** What each party may do on the milestone now, and its running deadlines; `siblings`: its transaction's milestones. */
function milestoneTurnFields(entry: MilestoneWithEscrow, siblings: readonly MilestoneState[]) {
  return turnFieldsWith(entry.milestone, siblings, allowedPartialOutcomeActions(partialOutcomeMilestoneOf(entry)));
}

/** A milestone's allowed actions with `partial`'s partial-outcome actions (all that are allowed, or only those owed), and its deadlines. */
function turnFieldsWith(m: MilestoneTurnColumns, siblings: readonly MilestoneState[], partial: { buyer: PartialOutcomeAction[]; seller: PartialOutcomeAction[] }) {
  const steps = withExtensionActions(allowedMilestoneActions(milestoneState(m), siblings), m);
  return {
    // The milestone's steps, then what each party may do about its due date, then the refunds and partial acceptance open to each (docs/decisions.md §17).
    allowed_actions: { buyer: [...steps.buyer, ...partial.buyer], seller: [...steps.seller, ...partial.seller] },
    deadlines: milestoneDeadlines(milestoneClockOf(m)).map((d) => ({ ...d, due_at: iso(d.due_at) })),
  };
}

/** The milestone's steps, then what each party may do about its due date. */
function withExtensionActions<A extends string>(steps: { buyer: A[]; seller: A[] }, m: Pick<MilestoneRow, 'status' | 'extensions'>) {
  const extension = allowedExtensionActions({ status: m.status as MilestoneStatus, extensions: m.extensions.map(extensionOf) });
  return { buyer: [...steps.buyer, ...extension.buyer], seller: [...steps.seller, ...extension.seller] };
}

/** What whose-turn reads of a transaction (a TransactionGraph has it all). */
type TransactionForTurns = {
  transaction: Pick<TransactionRow, 'status' | 'hasBuyerRated' | 'hasSellerRated' | 'cancellationRequest' | 'cancellationResponseDueAt'>;
  milestones: ReadonlyArray<{ milestone: MilestoneTurnColumns }>;
};

/** What each party may do on the transaction itself now, and its running deadlines. */
function transactionTurnFields(g: TransactionForTurns, now: Date) {
  const ending = endingStateOf(g);
  return {
    allowed_actions: allowedTransactionActions(ending, { status: g.transaction.status as TransactionStatus, hasBuyerRated: g.transaction.hasBuyerRated, hasSellerRated: g.transaction.hasSellerRated }, now),
    deadlines: transactionDeadlines(transactionClockOf(g.transaction), ending.milestones).map((d) => ({ ...d, due_at: iso(d.due_at) })),
  };
}

export function transactionWithMilestonesRecord(g: TransactionGraph, now: Date): TransactionWithMilestonesRecord {
  const siblings = g.milestones.map((e) => milestoneState(e.milestone));
  return {
    ...transactionRecord(g.transaction, partyUserIdsOf(g)),
    buyer: partyRecord(g.buyer),
    seller: partyRecord(g.seller),
    milestones: g.milestones.map((entry) => milestoneFields(entry, siblings)),
    ...transactionTurnFields(g, now),
  };
}

/**
 * What whose-turn (lib/escrow/turns.ts TurnsTransaction) reads of a transaction's record, built alone for a list row. Its
 * milestones' allowed_actions leave out the partial-outcome choices (turns drop every choice): those read the escrow's
 * balance and the dispute, which the list then need not read.
 */
export function transactionTurns(g: TransactionForTurns, now: Date) {
  const siblings = g.milestones.map((e) => milestoneState(e.milestone));
  return {
    ...transactionTurnFields(g, now),
    milestones: g.milestones.map(({ milestone: m }) => ({
      id: m.id,
      due_date: iso(m.dueDate),
      ...turnFieldsWith(m, siblings, owedPartialOutcomeActions({ status: m.status as MilestoneStatus, partialAcceptance: m.partialAcceptance && partialAcceptanceOf(m.partialAcceptance) })),
    })),
  };
}

export function milestoneRecord(g: TransactionGraph, milestoneId: string): MilestoneRecord {
  const entry = g.milestones.find((e) => e.milestone.id === milestoneId);
  if (!entry) throw new Error(`milestone ${milestoneId} is not in transaction ${g.transaction.id}`);
  return {
    ...milestoneFields(entry, g.milestones.map((e) => milestoneState(e.milestone))),
    transaction: { ...transactionRecord(g.transaction, partyUserIdsOf(g)), buyer: partyRecord(g.buyer), seller: partyRecord(g.seller) },
  };
}

export function milestoneWithLogsRecord(g: TransactionGraph, milestoneId: string, logs: MilestoneLogRow[]): MilestoneWithLogsRecord {
  return { ...milestoneRecord(g, milestoneId), milestone_logs: logs.map(milestoneLogRecord) };
}
