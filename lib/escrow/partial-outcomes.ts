/**
 * Partial outcomes without a dispute (docs/decisions.md §17): the seller's refund of part or all of what a
 * milestone holds, and the buyer's partial acceptance that the seller accepts, declines or lets lapse.
 * Pure: callers pass the milestone as its records hold it and `now`, and get back what to write (status,
 * the proposal, the deadline fields) and the amounts the ledger moves, or why the action is refused.
 * The transfers themselves come from held-escrow.ts with the caller's account ids.
 */
import { addBusinessDays, addCalendarDays } from './business-days';
import { PARTIAL_ACCEPTANCE_RESPONSE_BUSINESS_DAYS } from './deadlines';
import type { DisputeStatus } from './dispute-machine';
import { heldPrincipal, refundBreakdown, type RefundBreakdown } from './held-escrow';
import { settlementBreakdown, type SettlementBreakdown, type SettlementTerms } from './ledger';
import type { MilestoneStatus, PartyRole } from './milestone-machine';
import { formatNaira, type Kobo } from './money';

export const PARTIAL_OUTCOME_ACTIONS = ['refund', 'propose_partial_acceptance', 'accept_partial_acceptance', 'decline_partial_acceptance'] as const;
export type PartialOutcomeAction = (typeof PARTIAL_OUTCOME_ACTIONS)[number];

/** WITHDRAWN: the buyer approved or rejected in full instead, or a seller's refund changed what the escrow holds. */
export const PARTIAL_ACCEPTANCE_STATUSES = ['PENDING', 'ACCEPTED', 'DECLINED', 'WITHDRAWN'] as const;
export type PartialAcceptanceStatus = (typeof PARTIAL_ACCEPTANCE_STATUSES)[number];

export type PartialAcceptance = {
  releaseAmount: Kobo;
  /** What the buyer's wallet gets back if accepted: the rest of the escrow, the fee share on it included. */
  refundAmount: Kobo;
  reason: string;
  status: PartialAcceptanceStatus;
  proposedAt: Date;
  answeredAt: Date | null;
  declineReason: string | null;
};

/** Statuses in which the escrow may hold the buyer's money and the seller may give it back (arbitration aside). */
export const REFUNDABLE_STATUSES = [
  'IN_PROGRESS',
  'UNDER_INSPECTION',
  'DELIVERY_RETURNED_AWAITING_APPROVAL',
  'DELIVERY_RETURN_REJECTED',
  'IN_DISPUTE',
] as const satisfies readonly MilestoneStatus[];

/** A disputed milestone can be refunded while the parties still talk or give evidence, not once the dispute team decides. */
const REFUNDABLE_DISPUTE: ReadonlySet<DisputeStatus> = new Set(['INTRA_PARTY_MEDIATION', 'EVIDENCE_SUBMISSION']);

export type PartialOutcomeMilestone = {
  status: MilestoneStatus;
  /** The milestone's agreed amount, fee and payer, and its escrow's balance now (ledger.ts). */
  terms: SettlementTerms;
  /** Days; a declined proposal restarts inspection for this long (docs/decisions.md §5). */
  inspectionDuration: number;
  partialAcceptance: PartialAcceptance | null;
  /** The open dispute's status while the milestone is IN_DISPUTE; null otherwise. */
  disputeStatus: DisputeStatus | null;
};

/** The milestone's deadline fields a decision changes; a field left out keeps its value. */
export type ClockWrites = { inspectionEndDate?: Date | null; partialAcceptanceResponseDueAt?: Date | null };

export type Refusal = { ok: false; code: 'WRONG_PARTY' | 'INVALID_STATE' | 'VALIDATION_ERROR'; message: string };
const invalid = (message: string): Refusal => ({ ok: false, code: 'INVALID_STATE', message });
const wrongParty = (who: PartyRole, what: string): Refusal => ({ ok: false, code: 'WRONG_PARTY', message: `Only the ${who} can ${what}.` });

export function pendingPartialAcceptance(m: Pick<PartialOutcomeMilestone, 'partialAcceptance'>): PartialAcceptance | null {
  return m.partialAcceptance?.status === 'PENDING' ? m.partialAcceptance : null;
}

const answered = (p: PartialAcceptance, status: PartialAcceptanceStatus, at: Date, declineReason: string | null = null): PartialAcceptance => ({
  ...p,
  status,
  answeredAt: at,
  declineReason,
});

/** Why the milestone's escrow cannot be refunded now, if so. */
function notRefundable(m: PartialOutcomeMilestone): Refusal | undefined {
  if (!(REFUNDABLE_STATUSES as readonly MilestoneStatus[]).includes(m.status)) {
    return invalid(`Only a milestone that holds money can be refunded; this one is ${m.status}.`);
  }
  if (m.status === 'IN_DISPUTE' && (!m.disputeStatus || !REFUNDABLE_DISPUTE.has(m.disputeStatus))) {
    return invalid(`The dispute is with the dispute team (status ${m.disputeStatus ?? 'unknown'}): the milestone can be refunded only during mediation or evidence submission.`);
  }
  if (heldPrincipal(m.terms) === 0) return invalid('The milestone holds nothing to refund.');
  return undefined;
}

export type RefundDecision =
  | {
      ok: true;
      /** REFUNDED when everything held goes back, else the status it had. */
      to: MilestoneStatus;
      breakdown: RefundBreakdown;
      /** A pending proposal named amounts of an escrow that has now changed: it is withdrawn. */
      partialAcceptance: PartialAcceptance | null;
      clock: ClockWrites;
      /** An open dispute over a milestone now refunded in full ends as the seller's withdrawal of it (docs/decisions.md §6). */
      closesDispute: 'CANCELED' | null;
    }
  | Refusal;

/**
 * `POST /v1/milestones/{id}/refund {seller_id, amount}` by `by`: `amount` is principal, 0 < amount ≤ what
 * is held (heldPrincipal); the buyer also gets its prepaid fee share on it back (breakdown.toBuyer).
 */
export function decideSellerRefund(m: PartialOutcomeMilestone, by: PartyRole, amount: Kobo, now: Date): RefundDecision {
  if (by !== 'seller') return wrongParty('seller', 'refund a milestone');
  const refused = notRefundable(m);
  if (refused) return refused;
  const held = heldPrincipal(m.terms);
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > held) {
    return { ok: false, code: 'VALIDATION_ERROR', message: `amount must be more than 0 and at most ${formatNaira(held)}, what the milestone holds.` };
  }
  const breakdown = refundBreakdown(amount, m.terms);
  const everything = breakdown.principalAfter === 0;
  const pending = pendingPartialAcceptance(m);
  const clock: ClockWrites = {};
  if (pending) clock.partialAcceptanceResponseDueAt = null;
  // Inspection was suspended while the proposal waited; it restarts now, as after a decline.
  if (pending && !everything) clock.inspectionEndDate = addCalendarDays(now, m.inspectionDuration);
  if (everything) Object.assign(clock, { inspectionEndDate: null, partialAcceptanceResponseDueAt: null });
  return {
    ok: true,
    to: everything ? 'REFUNDED' : m.status,
    breakdown,
    partialAcceptance: pending ? answered(pending, 'WITHDRAWN', now) : m.partialAcceptance,
    clock,
    closesDispute: everything && m.status === 'IN_DISPUTE' ? 'CANCELED' : null,
  };
}

/** What each party gets if a proposal of `releaseAmount` is accepted: for the screen that confirms it. */
export function partialAcceptancePreview(releaseAmount: Kobo, terms: SettlementTerms): SettlementBreakdown {
  return settlementBreakdown(releaseAmount, terms);
}

export type ProposalDecision = { ok: true; partialAcceptance: PartialAcceptance; clock: ClockWrites } | Refusal;

/**
 * `POST /v1/milestones/{id}/partial-acceptance {buyer_id, release_amount, reason}`: while under inspection,
 * one pending at a time, 0 < release_amount < what is held. Its answer deadline replaces inspection's.
 */
export function decideProposePartialAcceptance(
  m: PartialOutcomeMilestone,
  by: PartyRole,
  proposal: { releaseAmount: Kobo; reason: string },
  now: Date,
  holidays: ReadonlySet<string>,
): ProposalDecision {
  if (by !== 'buyer') return wrongParty('buyer', 'propose a partial acceptance');
  if (m.status !== 'UNDER_INSPECTION') return invalid(`A partial acceptance can be proposed only during inspection; the milestone is ${m.status}.`);
  if (pendingPartialAcceptance(m)) return invalid('A partial acceptance is already waiting for the seller’s answer.');
  const held = heldPrincipal(m.terms);
  const r = proposal.releaseAmount;
  if (!Number.isSafeInteger(r) || r <= 0 || r >= held) {
    return {
      ok: false,
      code: 'VALIDATION_ERROR',
      message: `release_amount must be more than 0 and less than ${formatNaira(held)}, what the milestone holds (approve the delivery to release all of it).`,
    };
  }
  const { toBuyer } = settlementBreakdown(r, m.terms);
  return {
    ok: true,
    partialAcceptance: { releaseAmount: r, refundAmount: toBuyer, reason: proposal.reason, status: 'PENDING', proposedAt: now, answeredAt: null, declineReason: null },
    clock: { inspectionEndDate: null, partialAcceptanceResponseDueAt: addBusinessDays(now, PARTIAL_ACCEPTANCE_RESPONSE_BUSINESS_DAYS, holidays) },
  };
}

export type AnswerDecision =
  | {
      ok: true;
      kind: 'accepted';
      to: 'COMPLETED';
      partialAcceptance: PartialAcceptance;
      /** partialAcceptanceSettlement's amounts; amount_released is releaseAmount, amount_refunded grows by breakdown.toBuyer. */
      releaseAmount: Kobo;
      breakdown: SettlementBreakdown;
      clock: ClockWrites;
    }
  | { ok: true; kind: 'declined'; to: 'UNDER_INSPECTION'; partialAcceptance: PartialAcceptance; clock: ClockWrites }
  | Refusal;

/**
 * `POST …/partial-acceptance/accept|decline` by `by`; 'service' is the lapse of the answer deadline, which
 * accepts (pass the deadline's instant as `now`). A decline restarts inspection from the decline.
 */
export function decidePartialAcceptanceAnswer(
  m: PartialOutcomeMilestone,
  by: PartyRole | 'service',
  answer: 'accept' | 'decline',
  now: Date,
  declineReason: string | null = null,
): AnswerDecision {
  if (by === 'buyer') return wrongParty('seller', `${answer} a partial acceptance`);
  if (by === 'service' && answer === 'decline') return invalid('An unanswered partial acceptance is accepted, never declined, by the service.');
  const pending = pendingPartialAcceptance(m);
  if (!pending || m.status !== 'UNDER_INSPECTION') return invalid(`There is no partial acceptance waiting for an answer (the milestone is ${m.status}).`);
  if (answer === 'decline') {
    return {
      ok: true,
      kind: 'declined',
      to: 'UNDER_INSPECTION',
      partialAcceptance: answered(pending, 'DECLINED', now, declineReason),
      clock: { partialAcceptanceResponseDueAt: null, inspectionEndDate: addCalendarDays(now, m.inspectionDuration) },
    };
  }
  if (pending.releaseAmount >= heldPrincipal(m.terms)) {
    // Refunds withdraw a pending proposal, so this is a record out of step with its escrow.
    return invalid('The proposal no longer fits what the milestone holds.');
  }
  return {
    ok: true,
    kind: 'accepted',
    to: 'COMPLETED',
    partialAcceptance: answered(pending, 'ACCEPTED', now),
    releaseAmount: pending.releaseAmount,
    breakdown: settlementBreakdown(pending.releaseAmount, m.terms),
    clock: { partialAcceptanceResponseDueAt: null, inspectionEndDate: null },
  };
}

/**
 * The buyer's full approval or rejection withdraws a pending proposal (docs/decisions.md §17): the record
 * and deadline field to write beside the approve or reject. Nothing pending: nothing changes.
 */
export function withdrawOnBuyerAnswer(m: Pick<PartialOutcomeMilestone, 'partialAcceptance'>, now: Date): { partialAcceptance: PartialAcceptance | null; clock: ClockWrites } {
  const pending = pendingPartialAcceptance(m);
  if (!pending) return { partialAcceptance: m.partialAcceptance, clock: {} };
  return { partialAcceptance: answered(pending, 'WITHDRAWN', now), clock: { partialAcceptanceResponseDueAt: null } };
}

/** What each party may do now, beside the milestone's steps in its allowed_actions. */
export function allowedPartialOutcomeActions(m: PartialOutcomeMilestone): { buyer: PartialOutcomeAction[]; seller: PartialOutcomeAction[] } {
  const allowed = { buyer: [] as PartialOutcomeAction[], seller: [] as PartialOutcomeAction[] };
  if (!notRefundable(m)) allowed.seller.push('refund');
  if (m.status !== 'UNDER_INSPECTION') return allowed;
  if (pendingPartialAcceptance(m)) allowed.seller.push(...owedPartialOutcomeActions(m).seller);
  // A release strictly between 0 and everything held needs at least 2 kobo held.
  else if (heldPrincipal(m.terms) >= 2) allowed.buyer.push('propose_partial_acceptance');
  return allowed;
}

/**
 * Of allowedPartialOutcomeActions, the steps a party owes (never a choice, lib/escrow/turns.ts CHOICES): the seller's
 * answer to a pending partial acceptance. They read neither money nor the dispute, so whose-turn needs neither.
 */
export function owedPartialOutcomeActions(m: Pick<PartialOutcomeMilestone, 'status' | 'partialAcceptance'>): { buyer: PartialOutcomeAction[]; seller: PartialOutcomeAction[] } {
  const answering = m.status === 'UNDER_INSPECTION' && pendingPartialAcceptance(m) !== null;
  return { buyer: [], seller: answering ? ['accept_partial_acceptance', 'decline_partial_acceptance'] : [] };
}
