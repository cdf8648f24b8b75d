import 'server-only';
import type { MilestoneClock, TransactionClock } from '@/lib/escrow/deadlines';
import type { Extension } from '@/lib/escrow/extensions';
import type { EndingState } from '@/lib/escrow/ending';
import type { CommissionPayer } from '@/lib/escrow/fees';
import type { SettlementTerms } from '@/lib/escrow/ledger';
import type { MilestoneStatus } from '@/lib/escrow/milestone-machine';
import type { PartialAcceptance, PartialOutcomeMilestone } from '@/lib/escrow/partial-outcomes';
import type { ExtensionJson, PartialAcceptanceJson } from '../../db/schema';
import type { MilestoneRow, MilestoneWithEscrow, TransactionRow } from './queries';

/** A milestone's fields that its deadlines read (lib/escrow/deadlines.ts), from its row. */
export function milestoneClockOf(
  m: Pick<MilestoneRow, 'status' | 'inspectionEndDate' | 'returnDeadlineDate' | 'extensionResponseDueAt' | 'disputeOpeningDueAt' | 'partialAcceptanceResponseDueAt'>,
): MilestoneClock {
  return {
    status: m.status as MilestoneStatus,
    inspectionEndDate: m.inspectionEndDate,
    returnDeadlineDate: m.returnDeadlineDate,
    extensionResponseDueAt: m.extensionResponseDueAt,
    disputeOpeningDueAt: m.disputeOpeningDueAt,
    partialAcceptanceResponseDueAt: m.partialAcceptanceResponseDueAt,
  };
}

/** An extension request as the rules read it, from the row's JSON. */
export function extensionOf(e: ExtensionJson): Extension {
  return { dueDate: new Date(e.due_date), reason: e.reason, status: e.status, requestedAt: new Date(e.requested_at), answeredAt: e.answered_at ? new Date(e.answered_at) : null };
}

/** An extension request as its row keeps it. */
export function extensionJsonOf(e: Extension): ExtensionJson {
  return { due_date: e.dueDate.toISOString(), reason: e.reason, status: e.status, requested_at: e.requestedAt.toISOString(), answered_at: e.answeredAt?.toISOString() ?? null };
}

/** A partial acceptance as the rules read it, from the row's JSON (docs/decisions.md §17). */
export function partialAcceptanceOf(p: PartialAcceptanceJson): PartialAcceptance {
  return {
    releaseAmount: p.release_amount_kobo,
    refundAmount: p.refund_amount_kobo,
    reason: p.reason,
    status: p.status,
    proposedAt: new Date(p.proposed_at),
    answeredAt: p.answered_at ? new Date(p.answered_at) : null,
    declineReason: p.decline_reason,
  };
}

/** A partial acceptance as its row keeps it. */
export function partialAcceptanceJsonOf(p: PartialAcceptance): PartialAcceptanceJson {
  return {
    release_amount_kobo: p.releaseAmount,
    refund_amount_kobo: p.refundAmount,
    reason: p.reason,
    status: p.status,
    proposed_at: p.proposedAt.toISOString(),
    answered_at: p.answeredAt?.toISOString() ?? null,
    decline_reason: p.declineReason,
  };
}

/** A milestone, its escrow and its dispute's status as the partial-outcome rules (lib/escrow/partial-outcomes.ts) read them. */
export function partialOutcomeMilestoneOf(entry: MilestoneWithEscrow): PartialOutcomeMilestone {
  const m = entry.milestone;
  return {
    status: m.status as MilestoneStatus,
    terms: settlementTerms(entry),
    inspectionDuration: m.inspectionDuration,
    partialAcceptance: m.partialAcceptance ? partialAcceptanceOf(m.partialAcceptance) : null,
    disputeStatus: entry.disputeStatus ?? null,
  };
}

/** What the ending rules read of a transaction: a TransactionGraph has it all. */
export type EndingInput = {
  transaction: Pick<TransactionRow, 'status' | 'cancellationRequest'>;
  milestones: ReadonlyArray<{ milestone: Pick<MilestoneRow, 'id' | 'status' | 'position' | 'dueDate'> }>;
};

/** The transaction as the ending rules (lib/escrow/ending.ts) read it. */
export function endingStateOf(g: EndingInput): EndingState {
  const t = g.transaction;
  const request = t.cancellationRequest;
  return {
    ended: t.status === 'CANCELED' || t.status === 'TERMINATED' ? t.status : null,
    milestones: g.milestones.map(({ milestone: m }) => ({ id: m.id, status: m.status as MilestoneStatus, position: m.position, dueDate: m.dueDate })),
    cancellationRequest: request && { requestedBy: request.requested_by, reason: request.reason, requestedAt: new Date(request.requested_at) },
    // A milestone is DISPUTE_RESOLVED exactly when its dispute was resolved (by agreement, forfeit or verdict).
    hasResolvedDispute: g.milestones.some(({ milestone }) => milestone.status === 'DISPUTE_RESOLVED'),
  };
}

/** The transaction's own clock as its row holds it (lib/escrow/deadlines.ts): a pending cancellation request and when it lapses. */
export function transactionClockOf(t: Pick<TransactionRow, 'cancellationRequest' | 'cancellationResponseDueAt'>): TransactionClock {
  return { cancellationRequestedBy: t.cancellationRequest?.requested_by ?? null, cancellationResponseDueAt: t.cancellationResponseDueAt };
}

/** A milestone and its escrow as the settlement rules (lib/escrow/ledger.ts) read them. */
export function settlementTerms(entry: MilestoneWithEscrow): SettlementTerms {
  return {
    milestoneAmount: entry.milestone.amountKobo,
    milestoneFee: entry.milestone.feeKobo,
    commissionPayer: entry.milestone.commissionPayer as CommissionPayer,
    escrowBalance: entry.escrow.balanceKobo,
  };
}
