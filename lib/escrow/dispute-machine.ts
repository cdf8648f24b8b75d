/** The dispute state machine for mediation (decisions §6). */

export const DISPUTE_STATUSES = [
  'INTRA_PARTY_MEDIATION',
  'EVIDENCE_SUBMISSION',
  'ARBITRATION',
  'ARBITRATION_DECLINED',
  'RESOLVED',
  'CANCELED',
] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export const DISPUTE_AMOUNT_STATUSES = ['PENDING', 'SUBMITTED', 'APPROVED'] as const;
export type DisputeAmountStatus = (typeof DISPUTE_AMOUNT_STATUSES)[number];

export const DISPUTE_ACTIONS = ['add_dispute_amount', 'approve_dispute_amount', 'reject_dispute_amount'] as const;
export type DisputeAction = (typeof DISPUTE_ACTIONS)[number];

export const DISPUTE_ACTING_PARTY: Record<DisputeAction, 'buyer' | 'seller'> = {
  add_dispute_amount: 'seller',
  approve_dispute_amount: 'buyer',
  reject_dispute_amount: 'buyer',
};

export type DisputeState = { status: DisputeStatus; amountStatus: DisputeAmountStatus };

export type DisputeDecision =
  | { ok: true; status: DisputeStatus; amountStatus: DisputeAmountStatus }
  | { ok: false; message: string };

export function decideDisputeAction(action: DisputeAction, dispute: DisputeState): DisputeDecision {
  if (dispute.status !== 'INTRA_PARTY_MEDIATION') {
    return {
      ok: false,
      message: `The dispute is no longer in intra-party mediation (status ${dispute.status}), so amounts cannot be proposed or answered.`,
    };
  }
  switch (action) {
    case 'add_dispute_amount':
      if (dispute.amountStatus === 'APPROVED') {
        return { ok: false, message: 'The buyer has already approved an amount; it can no longer be revised.' };
      }
      return { ok: true, status: 'INTRA_PARTY_MEDIATION', amountStatus: 'SUBMITTED' };
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
  }
}

export function allowedDisputeActions(dispute: DisputeState): { buyer: DisputeAction[]; seller: DisputeAction[] } {
  const allowed: { buyer: DisputeAction[]; seller: DisputeAction[] } = { buyer: [], seller: [] };
  for (const action of DISPUTE_ACTIONS) {
    if (decideDisputeAction(action, dispute).ok) allowed[DISPUTE_ACTING_PARTY[action]].push(action);
  }
  return allowed;
}
