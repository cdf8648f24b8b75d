/** The dispute state machine (docs/decisions.md §6): mediation, escalation, evidence, arbitration, cancellation. */

export const DISPUTE_STATUSES = [
  'INTRA_PARTY_MEDIATION',
  'EVIDENCE_SUBMISSION',
  'ARBITRATION',
  'ARBITRATION_DECLINED',
  'RESOLVED',
  'CANCELED',
] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** SUBMITTED: the seller proposed an amount; COUNTER_OFFERED: the buyer offered one (docs/decisions.md §13). */
export const DISPUTE_AMOUNT_STATUSES = ['PENDING', 'SUBMITTED', 'COUNTER_OFFERED', 'APPROVED'] as const;
export type DisputeAmountStatus = (typeof DISPUTE_AMOUNT_STATUSES)[number];

export const DISPUTE_ACTIONS = [
  'add_dispute_amount',
  'approve_dispute_amount',
  'reject_dispute_amount',
  'counter_offer',
  'accept_counter_offer',
  'escalate',
  'submit_evidence',
  /** Either party, once each, while evidence is taken (docs/decisions.md §13; the rule is extensions.ts's). */
  'extend_evidence',
  'cancel',
] as const;
export type DisputeAction = (typeof DISPUTE_ACTIONS)[number];

/** Who may take each action; escalation and evidence are open to both parties. */
export const DISPUTE_ACTING_PARTY: Record<DisputeAction, 'buyer' | 'seller' | 'either'> = {
  add_dispute_amount: 'seller',
  approve_dispute_amount: 'buyer',
  reject_dispute_amount: 'buyer',
  counter_offer: 'buyer',
  accept_counter_offer: 'seller',
  escalate: 'either',
  submit_evidence: 'either',
  extend_evidence: 'either',
  cancel: 'seller',
};

export type DisputeState = { status: DisputeStatus; amountStatus: DisputeAmountStatus };

export type DisputeDecision =
  | { ok: true; status: DisputeStatus; amountStatus: DisputeAmountStatus }
  | { ok: false; message: string };

const OPEN: ReadonlySet<DisputeStatus> = new Set(['INTRA_PARTY_MEDIATION', 'EVIDENCE_SUBMISSION', 'ARBITRATION', 'ARBITRATION_DECLINED']);

export function isOpen(status: DisputeStatus): boolean {
  return OPEN.has(status);
}

/**
 * Where the dispute team's verdict decides: arbitration, and declined arbitration until its refund lapses
 * (issue #25: declined arbitration had no end).
 */
export const AWAITING_VERDICT = ['ARBITRATION', 'ARBITRATION_DECLINED'] as const satisfies readonly DisputeStatus[];

export function takesVerdict(status: DisputeStatus): boolean {
  return (AWAITING_VERDICT as readonly DisputeStatus[]).includes(status);
}

export function decideDisputeAction(action: DisputeAction, dispute: DisputeState): DisputeDecision {
  const keep = { ok: true as const, status: dispute.status, amountStatus: dispute.amountStatus };
  switch (action) {
    case 'add_dispute_amount':
    case 'approve_dispute_amount':
    case 'reject_dispute_amount':
    case 'counter_offer':
    case 'accept_counter_offer':
    case 'escalate':
      if (dispute.status !== 'INTRA_PARTY_MEDIATION') {
        return {
          ok: false,
          message: `The dispute is no longer in intra-party mediation (status ${dispute.status}), so amounts cannot be proposed or answered and it cannot be escalated.`,
        };
      }
      break;
    case 'submit_evidence':
      if (dispute.status !== 'EVIDENCE_SUBMISSION') {
        return { ok: false, message: `Evidence is taken only during evidence submission; the dispute is ${dispute.status}.` };
      }
      return keep;
    case 'extend_evidence':
      if (dispute.status !== 'EVIDENCE_SUBMISSION') {
        return { ok: false, message: `The evidence window can be extended only during evidence submission; the dispute is ${dispute.status}.` };
      }
      return keep;
    case 'cancel':
      if (!isOpen(dispute.status)) return { ok: false, message: `The dispute is already closed (status ${dispute.status}).` };
      return { ok: true, status: 'CANCELED', amountStatus: dispute.amountStatus };
  }
  switch (action) {
    case 'add_dispute_amount':
    case 'counter_offer':
      if (dispute.amountStatus === 'APPROVED') {
        return { ok: false, message: 'An amount has already been agreed; it can no longer be revised.' };
      }
      return { ok: true, status: 'INTRA_PARTY_MEDIATION', amountStatus: action === 'counter_offer' ? 'COUNTER_OFFERED' : 'SUBMITTED' };
    case 'accept_counter_offer':
      if (dispute.amountStatus !== 'COUNTER_OFFERED') {
        return { ok: false, message: `There is no counter-offer from the buyer to accept (dispute_amount_status ${dispute.amountStatus}).` };
      }
      return { ok: true, status: 'RESOLVED', amountStatus: 'APPROVED' };
    case 'approve_dispute_amount':
    case 'reject_dispute_amount':
      if (dispute.amountStatus !== 'SUBMITTED') {
        return {
          ok: false,
          message: `There is no proposed amount to ${action === 'approve_dispute_amount' ? 'approve' : 'reject'} (dispute_amount_status ${dispute.amountStatus}).`,
        };
      }
      return action === 'approve_dispute_amount'
        ? { ok: true, status: 'RESOLVED', amountStatus: 'APPROVED' }
        : { ok: true, status: 'INTRA_PARTY_MEDIATION', amountStatus: 'PENDING' };
    default:
      return { ok: true, status: 'EVIDENCE_SUBMISSION', amountStatus: dispute.amountStatus };
  }
}

/** `evidenceExtendedBy`: the parties that have used their one extension of the evidence window. */
export function allowedDisputeActions(dispute: DisputeState, evidenceExtendedBy: readonly ('buyer' | 'seller')[] = []): { buyer: DisputeAction[]; seller: DisputeAction[] } {
  const allowed: { buyer: DisputeAction[]; seller: DisputeAction[] } = { buyer: [], seller: [] };
  for (const action of DISPUTE_ACTIONS) {
    if (!decideDisputeAction(action, dispute).ok) continue;
    const party = DISPUTE_ACTING_PARTY[action];
    const used = (role: 'buyer' | 'seller') => action === 'extend_evidence' && evidenceExtendedBy.includes(role);
    if (party !== 'seller' && !used('buyer')) allowed.buyer.push(action);
    if (party !== 'buyer' && !used('seller')) allowed.seller.push(action);
  }
  return allowed;
}

/** What the service does when a dispute's running deadline passes (docs/decisions.md §6). */
export type DisputeLapse =
  | { kind: 'escalate' }
  | { kind: 'forfeit'; loser: 'buyer' | 'seller' }
  | { kind: 'arbitration' }
  | { kind: 'declined' }
  /** Declined arbitration that the dispute team left undecided: everything held goes back to the buyer (issue #25). */
  | { kind: 'declined_refund' };

export function lapseOutcome(d: { status: DisputeStatus; buyerEvidence: boolean; sellerEvidence: boolean }): DisputeLapse | undefined {
  if (d.status === 'INTRA_PARTY_MEDIATION') return { kind: 'escalate' };
  if (d.status === 'ARBITRATION_DECLINED') return { kind: 'declined_refund' };
  if (d.status !== 'EVIDENCE_SUBMISSION') return undefined;
  if (d.buyerEvidence && d.sellerEvidence) return { kind: 'arbitration' };
  if (d.buyerEvidence) return { kind: 'forfeit', loser: 'seller' };
  if (d.sellerEvidence) return { kind: 'forfeit', loser: 'buyer' };
  return { kind: 'declined' };
}
