/**
 * The lapse engine (docs/decisions.md §5, §6): given a transaction's milestones and disputes as the records hold
 * them, the business-day calendar and `now`, which deadlines have lapsed and what each does, in the order
 * they are applied. The deadline runner and the lock every milestone or dispute write takes both ask it
 * and apply its answer, so "is this due, and what happens" is decided here only. Pure: time comes in.
 */
import { addBusinessDays } from './business-days';
import {
  DEADLINES,
  DECLINED_REFUND_BUSINESS_DAYS,
  disputeDeadlines,
  EVIDENCE_BUSINESS_DAYS,
  isDue,
  MEDIATION_BUSINESS_DAYS,
  milestoneDeadlines,
  transactionDeadlines,
  type DeadlineName,
  type DisputeClock,
  type MilestoneClock,
  type TransactionClock,
} from './deadlines';
import { lapseOutcome, type DisputeStatus } from './dispute-machine';
import { endingPlan, lapsedRequestApproves } from './ending';
import { decideMilestoneAction, type MilestoneStatus } from './milestone-machine';

export type LapseMilestone = MilestoneClock & { id: string; position: number };
export type LapseDispute = DisputeClock & {
  id: string;
  milestoneId: string;
  isBuyerEvidenceSubmitted: boolean;
  isSellerEvidenceSubmitted: boolean;
};
/**
 * One transaction's milestones and disputes, and its own clock (a pending cancellation request): all the
 * engine reads. A transaction without the clock given has no request pending.
 */
export type TransactionClocks = { milestones: readonly LapseMilestone[]; disputes: readonly LapseDispute[]; transaction?: TransactionClock };
/**
 * What the business-day calendar needs: the holidays it skips. And the id a dispute the service opens
 * itself will have (a dispute_opening lapse), so that the lapses after it can name it: the same id for
 * the same milestone on every call.
 */
export type Calendar = { holidays: ReadonlySet<string>; disputeIdFor: (milestoneId: string) => string };

type Lapsed = { dueAt: Date; milestoneId: string };
type DisputeLapsed = Lapsed & { disputeId: string; to: DisputeStatus };

/** A deadline that has lapsed, and what the service does about it. */
export type Lapse =
  /** The buyer let inspection run out: the delivery is accepted (the buyer's `approve`, taken by the service). */
  | (Lapsed & { kind: 'accept_delivery'; deadline: 'inspection'; action: 'approve' })
  /**
   * The seller left the buyer's partial acceptance unanswered: it is accepted (the seller's
   * `accept_partial_acceptance`, taken by the service; docs/decisions.md §17).
   */
  | (Lapsed & { kind: 'accept_partial_acceptance'; deadline: 'partial_acceptance_response' })
  /** The seller left a return unanswered: it is approved, the buyer refunded (the seller's `approve_return`). */
  | (Lapsed & { kind: 'approve_return'; deadline: 'return_response'; action: 'approve_return' })
  /** The buyer left the seller's due-date extension request unanswered: declined, the due date stands. */
  | (Lapsed & { kind: 'decline_extension'; deadline: 'extension_response' })
  /**
   * Nobody opened a dispute over a rejected return: the service opens it, its mediation counted from
   * when the deadline passed (issue #25).
   */
  | (Lapsed & { kind: 'open_dispute'; deadline: 'dispute_opening'; action: 'open_dispute'; disputeId: string; mediationEndsAt: Date })
  /** Mediation ran out: evidence submission opens, counted from when mediation ended. */
  | (DisputeLapsed & { kind: 'escalate'; deadline: 'intra_party_mediation'; evidenceEndsAt: Date })
  /** The evidence window closed with one party silent: it forfeits, the escrow goes to the other. */
  | (DisputeLapsed & { kind: 'forfeit'; deadline: 'evidence_submission'; loser: 'buyer' | 'seller' })
  /** Both parties spoke: the dispute team arbitrates. */
  | (DisputeLapsed & { kind: 'arbitration'; deadline: 'evidence_submission' })
  /** Neither spoke: arbitration is declined; the funds stay held until the dispute team decides, or `refundDueAt`. */
  | (DisputeLapsed & { kind: 'declined'; deadline: 'evidence_submission'; refundDueAt: Date })
  /** Declined arbitration the dispute team left undecided: everything held goes back to the buyer (issue #25). */
  | (DisputeLapsed & { kind: 'declined_refund'; deadline: 'declined_refund' })
  /**
   * A cancellation request went unanswered: approved when the seller asked and the state allows it (every
   * unfinished milestone canceled, the escrows refunded), declined otherwise (docs/decisions.md §13).
   */
  | { kind: 'cancellation_lapsed'; deadline: 'cancellation_response'; dueAt: Date; requestedBy: 'buyer' | 'seller'; outcome: 'approve' | 'decline' };

// At the same instant lapses apply in DEADLINES order.
const RANK: ReadonlyMap<DeadlineName, number> = new Map(DEADLINES.map((rule, i) => [rule.name, i]));

type Running = { name: DeadlineName; dueAt: Date; milestone?: LapseMilestone; dispute?: LapseDispute; transaction?: TransactionClock };

function runningDeadlines(state: TransactionClocks): Running[] {
  const transaction = state.transaction;
  return [
    ...state.milestones.flatMap((milestone) => milestoneDeadlines(milestone).map((d) => ({ name: d.name, dueAt: d.due_at, milestone }))),
    ...state.disputes.flatMap((dispute) => disputeDeadlines(dispute).map((d) => ({ name: d.name, dueAt: d.due_at, dispute }))),
    ...(transaction ? transactionDeadlines(transaction, state.milestones).map((d) => ({ name: d.name, dueAt: d.due_at, transaction })) : []),
  ];
}

/** What a lapsed deadline does, judged on the state it lapses in. */
function judge(r: Running, state: TransactionClocks, calendar: Calendar): Lapse {
  const { dueAt } = r;
  if (r.transaction) {
    const requestedBy = r.transaction.cancellationRequestedBy!;
    const outcome = lapsedRequestApproves(state.milestones, requestedBy) ? 'approve' : 'decline';
    return { kind: 'cancellation_lapsed', deadline: 'cancellation_response', dueAt, requestedBy, outcome };
  }
  if (r.milestone) {
    const milestoneId = r.milestone.id;
    if (r.name === 'inspection') return { kind: 'accept_delivery', deadline: 'inspection', action: 'approve', dueAt, milestoneId };
    if (r.name === 'partial_acceptance_response') return { kind: 'accept_partial_acceptance', deadline: 'partial_acceptance_response', dueAt, milestoneId };
    if (r.name === 'extension_response') return { kind: 'decline_extension', deadline: 'extension_response', dueAt, milestoneId };
    if (r.name === 'dispute_opening') {
      const mediationEndsAt = addBusinessDays(dueAt, MEDIATION_BUSINESS_DAYS, calendar.holidays);
      return { kind: 'open_dispute', deadline: 'dispute_opening', action: 'open_dispute', dueAt, milestoneId, disputeId: calendar.disputeIdFor(milestoneId), mediationEndsAt };
    }
    return { kind: 'approve_return', deadline: 'return_response', action: 'approve_return', dueAt, milestoneId };
  }
  const d = r.dispute!;
  const base = { dueAt, milestoneId: d.milestoneId, disputeId: d.id };
  const outcome = lapseOutcome({ status: d.status, buyerEvidence: d.isBuyerEvidenceSubmitted, sellerEvidence: d.isSellerEvidenceSubmitted });
  switch (outcome?.kind) {
    case 'escalate':
      // Counted from when mediation ended, not from when the lapse was noticed (docs/decisions.md §6).
      return { ...base, kind: 'escalate', deadline: 'intra_party_mediation', to: 'EVIDENCE_SUBMISSION', evidenceEndsAt: addBusinessDays(dueAt, EVIDENCE_BUSINESS_DAYS, calendar.holidays) };
    case 'forfeit':
      return { ...base, kind: 'forfeit', deadline: 'evidence_submission', to: 'RESOLVED', loser: outcome.loser };
    case 'arbitration':
      return { ...base, kind: 'arbitration', deadline: 'evidence_submission', to: 'ARBITRATION' };
    case 'declined':
      // Counted from when the evidence window closed, as the evidence window is from mediation's end.
      return { ...base, kind: 'declined', deadline: 'evidence_submission', to: 'ARBITRATION_DECLINED', refundDueAt: addBusinessDays(dueAt, DECLINED_REFUND_BUSINESS_DAYS, calendar.holidays) };
    case 'declined_refund':
      return { ...base, kind: 'declined_refund', deadline: 'declined_refund', to: 'RESOLVED' };
    default:
      throw new Error(`dispute ${d.id} has a running deadline in status ${d.status} but no lapse outcome`);
  }
}

function recordId(r: Running): string {
  return r.milestone?.id ?? r.dispute?.id ?? 'transaction';
}

/**
 * Every deadline of the state that has lapsed by `now`, judged on the state as it is: earliest first, and
 * at the same instant in DEADLINES order. The `deadlines` the API shows with `due_at` ≤ now are exactly these.
 */
export function lapsedNow(state: TransactionClocks, now: Date, calendar: Calendar): Lapse[] {
  return runningDeadlines(state)
    .filter((r) => isDue({ due_at: r.dueAt }, now))
    .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || RANK.get(a.name)! - RANK.get(b.name)! || recordId(a).localeCompare(recordId(b)))
    .map((r) => judge(r, state, calendar));
}

/** The state after a lapse has acted, as the service writes it. */
export function afterLapse(state: TransactionClocks, lapse: Lapse): TransactionClocks {
  switch (lapse.kind) {
    case 'accept_partial_acceptance':
      return {
        ...state,
        milestones: state.milestones.map((m) => (m.id === lapse.milestoneId ? { ...m, status: 'COMPLETED' as const, partialAcceptanceResponseDueAt: null, inspectionEndDate: null } : m)),
      };
    case 'cancellation_lapsed': {
      const transaction: TransactionClock = { cancellationRequestedBy: null, cancellationResponseDueAt: null };
      if (lapse.outcome === 'decline') return { ...state, transaction };
      const canceled = new Set(endingPlan(state.milestones).canceled);
      return { ...state, transaction, milestones: state.milestones.map((m) => (canceled.has(m.id) ? { ...m, status: 'CANCELED' as const } : m)) };
    }
    case 'decline_extension':
      return { ...state, milestones: state.milestones.map((m) => (m.id === lapse.milestoneId ? { ...m, extensionResponseDueAt: null } : m)) };
    case 'accept_delivery':
    case 'approve_return':
    case 'open_dispute': {
      const milestones = state.milestones.map((m) => {
        if (m.id !== lapse.milestoneId) return m;
        const decision = decideMilestoneAction(lapse.action, m, state.milestones);
        if (!decision.ok) throw new Error(`lapse ${lapse.kind} of milestone ${m.id}: ${decision.message}`);
        return { ...m, status: decision.to, ...(lapse.kind === 'open_dispute' ? { disputeOpeningDueAt: null } : {}) };
      });
      if (lapse.kind !== 'open_dispute') return { ...state, milestones };
      const opened: LapseDispute = {
        id: lapse.disputeId,
        milestoneId: lapse.milestoneId,
        status: 'INTRA_PARTY_MEDIATION',
        intraPartyMediationEndDate: lapse.mediationEndsAt,
        evidenceSubmissionEndDate: null,
        declinedRefundDueAt: null,
        isBuyerEvidenceSubmitted: false,
        isSellerEvidenceSubmitted: false,
      };
      return { ...state, milestones, disputes: [...state.disputes, opened] };
    }
    default: {
      const disputes = state.disputes.map((d) =>
        d.id !== lapse.disputeId
          ? d
          : {
              ...d,
              status: lapse.to,
              ...(lapse.kind === 'escalate' ? { evidenceSubmissionEndDate: lapse.evidenceEndsAt } : {}),
              declinedRefundDueAt: lapse.kind === 'declined' ? lapse.refundDueAt : null,
            },
      );
      // A forfeit or a declined arbitration's refund settles the disputed milestone; the other outcomes leave it in dispute.
      const settled: MilestoneStatus = 'DISPUTE_RESOLVED';
      const settles = lapse.kind === 'forfeit' || lapse.kind === 'declined_refund';
      const milestones = settles ? state.milestones.map((m) => (m.id === lapse.milestoneId ? { ...m, status: settled } : m)) : state.milestones;
      return { milestones, disputes };
    }
  }
}

/**
 * The lapses to apply, in order, for the transaction to be current at `now`. A lapse can make another due
 * (a test clock moved days ahead: mediation lapses into an evidence window that has also closed), so each
 * is judged on the state the ones before it leave; none is left due afterwards.
 */
export function dueLapses(state: TransactionClocks, now: Date, calendar: Calendar): Lapse[] {
  const plan: Lapse[] = [];
  for (let next = lapsedNow(state, now, calendar)[0]; next; next = lapsedNow(state, now, calendar)[0]) {
    plan.push(next);
    state = afterLapse(state, next);
  }
  return plan;
}
