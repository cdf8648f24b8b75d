/**
 * The milestone state machine (docs/decisions.md §5). Pure: callers pass the milestone and its siblings,
 * and get back either the next status or the reason the action is refused.
 */

export const MILESTONE_STATUSES = [
  'PENDING_FUNDING',
  'IN_PROGRESS',
  'UNDER_INSPECTION',
  'COMPLETED',
  'DELIVERY_RETURNED_AWAITING_APPROVAL',
  'DELIVERY_RETURN_APPROVED',
  'DELIVERY_RETURN_REJECTED',
  'IN_DISPUTE',
  'DISPUTE_RESOLVED',
  /** Ended unfinished by the transaction's cancellation or termination (docs/decisions.md §13); its escrow refunded. */
  'CANCELED',
  /** Ended by the seller's refund of everything held (docs/decisions.md §17). */
  'REFUNDED',
] as const;
export type MilestoneStatus = (typeof MILESTONE_STATUSES)[number];

export const MILESTONE_ACTIONS = [
  'fund',
  'deliver',
  'approve',
  'reject',
  'approve_return',
  'disapprove_return',
  'open_dispute',
] as const;
export type MilestoneAction = (typeof MILESTONE_ACTIONS)[number];

export type PartyRole = 'buyer' | 'seller';

/**
 * The spec's "Who acts" table, plus funding (docs/decisions.md §5: the buyer's wallet pays). A dispute over a
 * rejected return is either party's to open: the buyer's money is held, so the buyer must not depend on
 * the seller to start the process that frees it (issue #25).
 */
export const ACTING_PARTY = {
  fund: 'buyer',
  deliver: 'seller',
  approve: 'buyer',
  reject: 'buyer',
  approve_return: 'seller',
  disapprove_return: 'seller',
  open_dispute: 'either',
} as const satisfies Record<MilestoneAction, PartyRole | 'either'>;

/** The actions exactly one party takes (runMilestoneAction's): every one but opening a dispute. */
export type OnePartyMilestoneAction = { [A in MilestoneAction]: (typeof ACTING_PARTY)[A] extends PartyRole ? A : never }[MilestoneAction];

const TRANSITIONS: Record<MilestoneAction, { from: MilestoneStatus; to: MilestoneStatus }> = {
  fund: { from: 'PENDING_FUNDING', to: 'IN_PROGRESS' },
  deliver: { from: 'IN_PROGRESS', to: 'UNDER_INSPECTION' },
  approve: { from: 'UNDER_INSPECTION', to: 'COMPLETED' },
  reject: { from: 'UNDER_INSPECTION', to: 'DELIVERY_RETURNED_AWAITING_APPROVAL' },
  approve_return: { from: 'DELIVERY_RETURNED_AWAITING_APPROVAL', to: 'DELIVERY_RETURN_APPROVED' },
  disapprove_return: { from: 'DELIVERY_RETURNED_AWAITING_APPROVAL', to: 'DELIVERY_RETURN_REJECTED' },
  open_dispute: { from: 'DELIVERY_RETURN_REJECTED', to: 'IN_DISPUTE' },
};

const FINISHED: ReadonlySet<MilestoneStatus> = new Set(['COMPLETED', 'DELIVERY_RETURN_APPROVED', 'DISPUTE_RESOLVED', 'CANCELED', 'REFUNDED']);

export function isFinished(status: MilestoneStatus): boolean {
  return FINISHED.has(status);
}

export type MilestoneState = { id: string; status: MilestoneStatus; position: number };

export type Decision = { ok: true; to: MilestoneStatus } | { ok: false; message: string };

const HUMAN_STATUS: Record<MilestoneStatus, string> = {
  PENDING_FUNDING: 'waiting to be funded',
  IN_PROGRESS: 'funded and awaiting delivery',
  UNDER_INSPECTION: 'under inspection',
  COMPLETED: 'completed',
  DELIVERY_RETURNED_AWAITING_APPROVAL: 'returned, awaiting the seller',
  DELIVERY_RETURN_APPROVED: 'returned and refunded',
  DELIVERY_RETURN_REJECTED: 'return rejected by the seller',
  IN_DISPUTE: 'in dispute',
  DISPUTE_RESOLVED: 'dispute resolved',
  CANCELED: 'canceled',
  REFUNDED: 'refunded in full by the seller',
};

const ACTION_VERB: Record<MilestoneAction, string> = {
  fund: 'funded',
  deliver: 'delivered',
  approve: 'accepted',
  reject: 'rejected',
  approve_return: 'have its return approved',
  disapprove_return: 'have its return rejected',
  open_dispute: 'be disputed',
};

/** Milestones are worked in position order; the first unfinished one is current (docs/decisions.md §5). */
export function currentMilestone<M extends MilestoneState>(milestones: readonly M[]): M | undefined {
  return [...milestones].sort((a, b) => a.position - b.position).find((m) => !isFinished(m.status));
}

export function decideMilestoneAction(
  action: MilestoneAction,
  milestone: MilestoneState,
  siblings: readonly MilestoneState[],
): Decision {
  const transition = TRANSITIONS[action];
  const verb = ACTION_VERB[action];
  if (milestone.status !== transition.from) {
    return {
      ok: false,
      message: `This milestone cannot be ${verb} because it is ${HUMAN_STATUS[milestone.status]} (status ${milestone.status}).`,
    };
  }
  if (action === 'fund') {
    const unfundedEarlier = siblings.find((s) => s.position < milestone.position && s.status === 'PENDING_FUNDING');
    if (unfundedEarlier) {
      return {
        ok: false,
        message: `Milestone ${unfundedEarlier.position} must be funded before milestone ${milestone.position}.`,
      };
    }
  }
  if (action === 'deliver' || action === 'open_dispute') {
    const current = currentMilestone(siblings);
    if (current && current.id !== milestone.id) {
      return {
        ok: false,
        message: `Only the current milestone (position ${current.position}) can ${action === 'deliver' ? 'be delivered' : 'be disputed'}; this is milestone ${milestone.position}.`,
      };
    }
  }
  return { ok: true, to: transition.to };
}

export type AllowedActions<A extends string> = { buyer: A[]; seller: A[] };

export function allowedMilestoneActions(
  milestone: MilestoneState,
  siblings: readonly MilestoneState[],
): AllowedActions<MilestoneAction> {
  const allowed: AllowedActions<MilestoneAction> = { buyer: [], seller: [] };
  for (const action of MILESTONE_ACTIONS) {
    if (!decideMilestoneAction(action, milestone, siblings).ok) continue;
    const party: PartyRole | 'either' = ACTING_PARTY[action];
    if (party !== 'seller') allowed.buyer.push(action);
    if (party !== 'buyer') allowed.seller.push(action);
  }
  return allowed;
}

export const TRANSACTION_STATUSES = [
  'MILESTONE_PENDING_FUNDING',
  'MILESTONE_IN_PROGRESS',
  'MILESTONE_UNDER_INSPECTION',
  'MILESTONE_RETURN_AWAITING_APPROVAL',
  'MILESTONE_RETURN_REJECTED',
  'MILESTONE_IN_DISPUTE',
  'COMPLETED',
  /** Ended early by the parties (docs/decisions.md §13). */
  'CANCELED',
  /** Ended by a party after a resolved dispute (docs/decisions.md §13). */
  'TERMINATED',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

const TRANSACTION_STATUS_OF: Record<MilestoneStatus, TransactionStatus> = {
  PENDING_FUNDING: 'MILESTONE_PENDING_FUNDING',
  IN_PROGRESS: 'MILESTONE_IN_PROGRESS',
  UNDER_INSPECTION: 'MILESTONE_UNDER_INSPECTION',
  DELIVERY_RETURNED_AWAITING_APPROVAL: 'MILESTONE_RETURN_AWAITING_APPROVAL',
  DELIVERY_RETURN_REJECTED: 'MILESTONE_RETURN_REJECTED',
  IN_DISPUTE: 'MILESTONE_IN_DISPUTE',
  COMPLETED: 'COMPLETED',
  DELIVERY_RETURN_APPROVED: 'COMPLETED',
  DISPUTE_RESOLVED: 'COMPLETED',
  CANCELED: 'CANCELED',
  // Only the current milestone's status shows, and a refunded one is finished: the transaction moves on past it.
  REFUNDED: 'COMPLETED',
};

export type TransactionEnding = 'CANCELED' | 'TERMINATED';

/**
 * The transaction follows its current milestone, so it is never stale (docs/decisions.md §5); a transaction
 * ended early keeps the ending's status, whatever its milestones were (docs/decisions.md §13).
 */
export function transactionProgress<M extends MilestoneState>(
  milestones: readonly M[],
  ended: TransactionEnding | null = null,
): { status: TransactionStatus; current: M | undefined; isCompleted: boolean; onLastMilestone: boolean } {
  const ordered = [...milestones].sort((a, b) => a.position - b.position);
  const current = currentMilestone(ordered);
  const last = ordered[ordered.length - 1];
  if (ended) return { status: ended, current: undefined, isCompleted: false, onLastMilestone: false };
  if (!current) return { status: 'COMPLETED', current: last, isCompleted: true, onLastMilestone: true };
  return {
    status: TRANSACTION_STATUS_OF[current.status],
    current,
    isCompleted: false,
    onLastMilestone: current.id === last?.id,
  };
}
