/**
 * Every deadline the service keeps (docs/decisions.md §5, §6, §10), defined once: which record runs it, in which
 * status, which of the record's fields holds its instant, how it is counted and what happens at lapse. The
 * `deadlines` every milestone and dispute carries, the lapse engine (lapses.ts) and the deadline runner's
 * SQL scan are all read from DEADLINES.
 */
import type { DisputeStatus } from './dispute-machine';
import { lapsedRequestApproves } from './ending';
import type { MilestoneState, MilestoneStatus } from './milestone-machine';

export const INSPECTION_DAYS_DEFAULT = 3;
export const RETURN_WINDOW_DAYS = 7;
export const MEDIATION_BUSINESS_DAYS = 3;
export const EVIDENCE_BUSINESS_DAYS = 3;
/** How long the other party has to answer a cancellation request (docs/decisions.md §13, issue #25). */
export const CANCELLATION_RESPONSE_BUSINESS_DAYS = 3;
/** How long the buyer has to answer a due-date extension request; unanswered, it is declined (docs/decisions.md §13). */
export const EXTENSION_RESPONSE_BUSINESS_DAYS = 3;
/** How long the seller has to answer the buyer's partial acceptance; unanswered, it is accepted (docs/decisions.md §17). */
export const PARTIAL_ACCEPTANCE_RESPONSE_BUSINESS_DAYS = 3;
/** After the seller rejects a return: how long the parties have to open the dispute before the service does (issue #25). */
export const DISPUTE_OPENING_BUSINESS_DAYS = 3;
/** After arbitration is declined: how long the dispute team has to decide before the buyer is refunded (issue #25). */
export const DECLINED_REFUND_BUSINESS_DAYS = 10;

/** A milestone's fields that its deadlines read, named as the records hold them. */
export type MilestoneClock = {
  status: MilestoneStatus;
  inspectionEndDate: Date | null;
  returnDeadlineDate: Date | null;
  /** A pending due-date extension request's answer is due (docs/decisions.md §13); null when none is pending. */
  extensionResponseDueAt: Date | null;
  disputeOpeningDueAt: Date | null;
  /** A pending partial acceptance's answer is due (docs/decisions.md §17); null when none is pending. */
  partialAcceptanceResponseDueAt: Date | null;
};
/** A dispute's fields that its deadlines read, named as the records hold them. */
export type DisputeClock = { status: DisputeStatus; intraPartyMediationEndDate: Date; evidenceSubmissionEndDate: Date | null; declinedRefundDueAt: Date | null };

type Counting = 'calendar_days' | 'business_days';

export type MilestoneDeadlineRule = {
  name: 'inspection' | 'partial_acceptance_response' | 'return_response' | 'extension_response' | 'dispute_opening';
  record: 'milestone';
  /** null: the deadline runs whenever its field holds an instant (a pending request), whatever the status. */
  status: MilestoneStatus | null;
  field: 'inspectionEndDate' | 'partialAcceptanceResponseDueAt' | 'returnDeadlineDate' | 'extensionResponseDueAt' | 'disputeOpeningDueAt';
  counted_in: Counting;
  on_lapse: string;
};

export type DisputeDeadlineRule = {
  name: 'intra_party_mediation' | 'evidence_submission' | 'declined_refund';
  record: 'dispute';
  status: DisputeStatus;
  field: 'intraPartyMediationEndDate' | 'evidenceSubmissionEndDate' | 'declinedRefundDueAt';
  counted_in: Counting;
  on_lapse: string;
};

/** A transaction's deadline: it runs while its field holds an instant (a pending request), whatever the status. */
export type TransactionDeadlineRule = {
  name: 'cancellation_response';
  record: 'transaction';
  field: 'cancellationResponseDueAt';
  counted_in: Counting;
  on_lapse: string;
};

export type DeadlineRule = MilestoneDeadlineRule | DisputeDeadlineRule | TransactionDeadlineRule;
export type DeadlineName = DeadlineRule['name'];

/** A deadline runs while its record is in `status`, until the instant in `field`. */
export const MILESTONE_DEADLINES: readonly MilestoneDeadlineRule[] = [
  { name: 'inspection', record: 'milestone', status: 'UNDER_INSPECTION', field: 'inspectionEndDate', counted_in: 'calendar_days', on_lapse: 'delivery_accepted' },
  // While the buyer's partial acceptance waits for the seller it replaces inspection, and lapses just after
  // it at the same instant (docs/decisions.md §16–§18): unanswered, the proposal is accepted.
  {
    name: 'partial_acceptance_response',
    record: 'milestone',
    status: 'UNDER_INSPECTION',
    field: 'partialAcceptanceResponseDueAt',
    counted_in: 'business_days',
    on_lapse: 'partial_acceptance_accepted',
  },
  {
    name: 'return_response',
    record: 'milestone',
    status: 'DELIVERY_RETURNED_AWAITING_APPROVAL',
    field: 'returnDeadlineDate',
    counted_in: 'calendar_days',
    on_lapse: 'return_approved',
  },
  /** The buyer left the seller's due-date extension request unanswered: it is declined, the due date stands. */
  { name: 'extension_response', record: 'milestone', status: null, field: 'extensionResponseDueAt', counted_in: 'business_days', on_lapse: 'extension_declined' },
  // A rejected return holds the buyer's money until a dispute settles it: nobody opening one must not hold it forever.
  {
    name: 'dispute_opening',
    record: 'milestone',
    status: 'DELIVERY_RETURN_REJECTED',
    field: 'disputeOpeningDueAt',
    counted_in: 'business_days',
    on_lapse: 'dispute_opened',
  },
];

export const DISPUTE_DEADLINES: readonly DisputeDeadlineRule[] = [
  {
    name: 'intra_party_mediation',
    record: 'dispute',
    status: 'INTRA_PARTY_MEDIATION',
    field: 'intraPartyMediationEndDate',
    counted_in: 'business_days',
    on_lapse: 'escalated_to_evidence_submission',
  },
  {
    name: 'evidence_submission',
    record: 'dispute',
    status: 'EVIDENCE_SUBMISSION',
    field: 'evidenceSubmissionEndDate',
    counted_in: 'business_days',
    on_lapse: 'forfeit_or_arbitration',
  },
  // Declined arbitration holds the funds until the dispute team decides; if it never does, they go back to the buyer.
  {
    name: 'declined_refund',
    record: 'dispute',
    status: 'ARBITRATION_DECLINED',
    field: 'declinedRefundDueAt',
    counted_in: 'business_days',
    on_lapse: 'refunded_to_buyer',
  },
];

/**
 * An unanswered cancellation request lapses the silent party's way: a seller's request is approved (the
 * buyer's money comes back), a buyer's is declined (the seller's deal stands). An approval the state no
 * longer allows (a milestone delivered meanwhile) lapses as a decline.
 */
export const TRANSACTION_DEADLINES: readonly TransactionDeadlineRule[] = [
  { name: 'cancellation_response', record: 'transaction', field: 'cancellationResponseDueAt', counted_in: 'business_days', on_lapse: 'cancellation_approved_or_declined' },
];

/** In this order the lapse engine applies lapses that fall due at the same instant. */
export const DEADLINES: readonly DeadlineRule[] = [...MILESTONE_DEADLINES, ...DISPUTE_DEADLINES, ...TRANSACTION_DEADLINES];

export type Deadline = {
  name: DeadlineName;
  due_at: Date;
  counted_in: Counting;
  on_lapse: string;
};

/** How long before a deadline its waiting party hears of it: the reminder email and `deadline.approaching` (docs/decisions.md §15, §19). */
export const DEADLINE_NOTICE_MS = 24 * 60 * 60 * 1000;

/** A deadline acts at its instant: due once `now` reaches it. */
export function isDue(deadline: Pick<Deadline, 'due_at'>, now: Date): boolean {
  return deadline.due_at.getTime() <= now.getTime();
}

function running(rule: MilestoneDeadlineRule | DisputeDeadlineRule, status: string, dueAt: Date | null): Deadline[] {
  if ((rule.status !== null && status !== rule.status) || !dueAt) return [];
  return [{ name: rule.name, due_at: dueAt, counted_in: rule.counted_in, on_lapse: rule.on_lapse }];
}

/**
 * The milestone's running deadlines: its status's, and a pending request's. A pending partial acceptance's
 * answer deadline stands in for inspection's (docs/decisions.md §17).
 */
export function milestoneDeadlines(m: MilestoneClock): Deadline[] {
  const deadlines = MILESTONE_DEADLINES.flatMap((rule) => running(rule, m.status, m[rule.field]));
  if (!deadlines.some((d) => d.name === 'partial_acceptance_response')) return deadlines;
  return deadlines.filter((d) => d.name !== 'inspection');
}

/** The dispute's running deadlines (at most one). */
export function disputeDeadlines(d: DisputeClock): Deadline[] {
  return DISPUTE_DEADLINES.flatMap((rule) => running(rule, d.status, d[rule.field]));
}

/** A transaction's fields that its deadlines read: a pending cancellation request and when its answer is due. */
export type TransactionClock = { cancellationRequestedBy: 'buyer' | 'seller' | null; cancellationResponseDueAt: Date | null };

/**
 * The transaction's running deadlines (a pending cancellation request's), each saying what its lapse does
 * as the transaction now stands (lapsedRequestApproves).
 */
export function transactionDeadlines(t: TransactionClock, milestones: readonly MilestoneState[]): Deadline[] {
  return TRANSACTION_DEADLINES.flatMap((rule) => {
    const dueAt = t[rule.field];
    if (!dueAt || !t.cancellationRequestedBy) return [];
    const onLapse = lapsedRequestApproves(milestones, t.cancellationRequestedBy) ? 'cancellation_approved' : 'cancellation_declined';
    return [{ name: rule.name, due_at: dueAt, counted_in: rule.counted_in, on_lapse: onLapse }];
  });
}

/**
 * Whose move each deadline waits for (docs/decisions.md §15: the reminder goes to them): `answerer` is the
 * party that did not make the pending request; null, nobody's (the dispute team's, or the service's).
 */
export const DEADLINE_OWED_BY: Record<DeadlineName, 'buyer' | 'seller' | 'both' | 'answerer' | null> = {
  inspection: 'buyer',
  partial_acceptance_response: 'seller',
  return_response: 'seller',
  extension_response: 'buyer',
  dispute_opening: 'both',
  intra_party_mediation: 'both',
  evidence_submission: 'both',
  declined_refund: null,
  cancellation_response: 'answerer',
};
