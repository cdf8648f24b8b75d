'use server';

import { DisputeIntentInput, ProposeAmountInput, RejectAmountInput, type ActionResult } from '@/lib/contracts/dashboard';
import { escrow } from '@/lib/server/escrow-client';
import { fromApi, guarded, notAllowed, notYours } from '@/lib/server/dashboard/action';
import { disputeFor } from '@/lib/server/dashboard/ownership';

export async function proposeAmount(input: unknown): Promise<ActionResult> {
  return guarded(ProposeAmountInput, input, async ({ dispute_id, idempotency_key, dispute_amount }, actor) => {
    const owned = await disputeFor(actor, dispute_id);
    if (owned.kind !== 'ok') return notYours('Dispute');
    if (owned.viewer !== 'seller') return notAllowed('Only the seller proposes a settlement amount.');
    return fromApi(await escrow.disputes.addAmount(dispute_id, { dispute_amount, seller_id: owned.record.seller.user_id }, idempotency_key));
  });
}

export async function approveAmount(input: unknown): Promise<ActionResult> {
  return guarded(DisputeIntentInput, input, async ({ dispute_id, idempotency_key }, actor) => {
    const owned = await disputeFor(actor, dispute_id);
    if (owned.kind !== 'ok') return notYours('Dispute');
    if (owned.viewer !== 'buyer') return notAllowed('Only the buyer approves the proposed amount.');
    return fromApi(await escrow.disputes.approveAmount(dispute_id, { buyer_id: owned.record.buyer.user_id }, idempotency_key));
  });
}

export async function rejectAmount(input: unknown): Promise<ActionResult> {
  return guarded(RejectAmountInput, input, async ({ dispute_id, idempotency_key, reason }, actor) => {
    const owned = await disputeFor(actor, dispute_id);
    if (owned.kind !== 'ok') return notYours('Dispute');
    if (owned.viewer !== 'buyer') return notAllowed('Only the buyer rejects the proposed amount.');
    const body = { buyer_id: owned.record.buyer.user_id, ...(reason ? { reason } : {}) };
    return fromApi(await escrow.disputes.rejectAmount(dispute_id, body, idempotency_key));
  });
}
