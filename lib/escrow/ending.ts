/**
 * Ending a transaction early (docs/decisions.md §13): cancellation (at once, by request and the other party's
 * answer, or by the buyer past an undelivered due date) and termination after a resolved dispute. Pure:
 * callers pass the transaction's milestones and `now`, and get back what happens or why it is refused.
 */
import { isFinished, type MilestoneState, type MilestoneStatus, type PartyRole, type TransactionEnding } from './milestone-machine';

export type EndingMilestone = MilestoneState & { dueDate: Date };

export type CancellationRequest = { requestedBy: PartyRole; reason: string; requestedAt: Date };

export type EndingState<M extends MilestoneState = EndingMilestone> = {
  /** Set once the transaction was canceled or terminated. */
  ended: TransactionEnding | null;
  milestones: readonly M[];
  cancellationRequest: CancellationRequest | null;
  /** Whether a dispute of the transaction is RESOLVED (termination's condition). */
  hasResolvedDispute: boolean;
};

/** What ending does to the milestones: every unfinished one becomes CANCELED; those holding money are refunded. */
export type EndingPlan = {
  /** Milestones that become CANCELED. */
  canceled: string[];
  /** Of those, the ones whose escrow holds the buyer's money, refunded to the buyer's wallet. */
  refunded: string[];
};

export type Refusal = { ok: false; code: 'WRONG_PARTY' | 'INVALID_STATE'; message: string };

export type CancelDecision =
  /** Canceled now: no money is held, or the buyer cancels past an undelivered milestone's due date. */
  | { ok: true; kind: 'canceled'; why: 'nothing_funded' | 'past_due'; plan: EndingPlan }
  /** Money is held and the parties must agree: a request the other party answers. */
  | { ok: true; kind: 'requested' }
  | Refusal;

/** Statuses in which a milestone is being inspected, returned or disputed: nobody ends the transaction then. */
const BUSY: ReadonlySet<MilestoneStatus> = new Set(['UNDER_INSPECTION', 'DELIVERY_RETURNED_AWAITING_APPROVAL', 'DELIVERY_RETURN_REJECTED', 'IN_DISPUTE']);

/** A milestone whose escrow holds the buyer's money and whose delivery has not happened. */
const holdsMoney = (m: MilestoneState) => m.status === 'IN_PROGRESS';

const invalid = (message: string): Refusal => ({ ok: false, code: 'INVALID_STATE', message });

export function endingPlan(milestones: readonly MilestoneState[]): EndingPlan {
  const unfinished = [...milestones].sort((a, b) => a.position - b.position).filter((m) => !isFinished(m.status));
  return { canceled: unfinished.map((m) => m.id), refunded: unfinished.filter(holdsMoney).map((m) => m.id) };
}

/** Why nobody may end the transaction now, if so: it has ended, or a milestone is busy, or nothing is left. */
function cannotEnd(state: Pick<EndingState<MilestoneState>, 'ended' | 'milestones'>, verb: 'canceled' | 'terminated'): Refusal | undefined {
  if (state.ended) return invalid(`The transaction has already ended (status ${state.ended}).`);
  const busy = [...state.milestones].sort((a, b) => a.position - b.position).find((m) => BUSY.has(m.status));
  if (busy) {
    return invalid(
      `The transaction cannot be ${verb} while milestone ${busy.position} is ${busy.status === 'IN_DISPUTE' ? 'in dispute' : busy.status === 'UNDER_INSPECTION' ? 'under inspection' : 'being returned'} (status ${busy.status}); it can once that ends.`,
    );
  }
  if (state.milestones.every((m) => isFinished(m.status))) return invalid('Every milestone of the transaction is finished: there is nothing left to end.');
  return undefined;
}

/** Past its due date and still awaiting delivery: the buyer may cancel alone. */
export function pastDueUndelivered(state: Pick<EndingState, 'milestones'>, now: Date): EndingMilestone | undefined {
  return [...state.milestones].sort((a, b) => a.position - b.position).find((m) => holdsMoney(m) && m.dueDate.getTime() < now.getTime());
}

/** `POST /v1/transactions/{id}/cancel` by `by`. */
export function decideCancel(state: EndingState, by: PartyRole, now: Date): CancelDecision {
  const refused = cannotEnd(state, 'canceled');
  if (refused) return refused;
  const plan = endingPlan(state.milestones);
  if (plan.refunded.length === 0) return { ok: true, kind: 'canceled', why: 'nothing_funded', plan };
  if (by === 'buyer' && pastDueUndelivered(state, now)) return { ok: true, kind: 'canceled', why: 'past_due', plan };
  const pending = state.cancellationRequest;
  if (pending) {
    return invalid(
      pending.requestedBy === by
        ? 'Your cancellation request is already waiting for the other party’s answer.'
        : `The ${pending.requestedBy} has already asked to cancel: approve or decline that request instead.`,
    );
  }
  return { ok: true, kind: 'requested' };
}

export type AnswerDecision = { ok: true; kind: 'canceled'; plan: EndingPlan } | { ok: true; kind: 'declined' } | Refusal;

/** `POST /v1/transactions/{id}/cancel/approve|decline` by `by`. */
export function decideCancellationAnswer(state: EndingState<MilestoneState>, by: PartyRole, answer: 'approve' | 'decline'): AnswerDecision {
  if (state.ended) return invalid(`The transaction has already ended (status ${state.ended}).`);
  const pending = state.cancellationRequest;
  if (!pending) return invalid('There is no cancellation request to answer.');
  if (pending.requestedBy === by) {
    return { ok: false, code: 'WRONG_PARTY', message: `Only the ${by === 'buyer' ? 'seller' : 'buyer'} can ${answer} the ${by}'s own cancellation request.` };
  }
  if (answer === 'decline') return { ok: true, kind: 'declined' };
  const refused = cannotEnd(state, 'canceled');
  if (refused) return refused;
  return { ok: true, kind: 'canceled', plan: endingPlan(state.milestones) };
}

export type TerminateDecision = { ok: true; plan: EndingPlan } | Refusal;

/** `POST /v1/transactions/{id}/terminate`: either party, once a dispute of the transaction is RESOLVED. */
export function decideTerminate(state: EndingState): TerminateDecision {
  if (state.ended) return invalid(`The transaction has already ended (status ${state.ended}).`);
  if (!state.hasResolvedDispute) return invalid('A transaction can be terminated only after one of its disputes is resolved; cancel it instead.');
  const refused = cannotEnd(state, 'terminated');
  if (refused) return refused;
  return { ok: true, plan: endingPlan(state.milestones) };
}

export const ENDING_ACTIONS = ['cancel', 'approve_cancellation', 'decline_cancellation', 'terminate'] as const;
/** Which ending actions each party has now (the transaction's `allowed_actions`). */
export type EndingAction = (typeof ENDING_ACTIONS)[number];

export function allowedEndingActions(state: EndingState, now: Date): { buyer: EndingAction[]; seller: EndingAction[] } {
  const allowed = { buyer: [] as EndingAction[], seller: [] as EndingAction[] };
  for (const party of ['buyer', 'seller'] as const) {
    if (decideCancel(state, party, now).ok) allowed[party].push('cancel');
    if (decideCancellationAnswer(state, party, 'approve').ok) allowed[party].push('approve_cancellation');
    if (decideCancellationAnswer(state, party, 'decline').ok) allowed[party].push('decline_cancellation');
    if (decideTerminate(state).ok) allowed[party].push('terminate');
  }
  return allowed;
}

/**
 * Whether an unanswered cancellation request lapses into a cancellation: when the seller asked (its
 * silent buyer gets the money back) and the state still allows an approval. Otherwise it is declined.
 */
export function lapsedRequestApproves(milestones: readonly MilestoneState[], requestedBy: PartyRole): boolean {
  // The buyer's approval as decideCancellationAnswer judges it: refused only when the transaction cannot end now.
  return requestedBy === 'seller' && !cannotEnd({ ended: null, milestones }, 'canceled');
}
