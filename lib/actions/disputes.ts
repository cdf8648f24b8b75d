'use server';

import { CounterOfferInput, DisputeIntentInput, ProposeAmountInput, RejectAmountInput, type ActionResult } from '@/lib/contracts/dashboard';
import { CancelDisputeInput, EscalateInput, ExtendEvidenceInput, SubmitEvidenceInput } from '@/lib/contracts/dashboard-disputes';
import { fromApi, guarded } from '@/lib/server/dashboard/action';
import { FORM_WORDS } from '@/lib/server/dashboard/form-words';
import { disputeBy } from '@/lib/server/dashboard/ownership';

export const proposeAmount = guarded(
  { input: ProposeAmountInput, owns: disputeBy(['seller'], 'Only the seller proposes a settlement amount.') },
  async ({ dispute_id, idempotency_key, dispute_amount }, { owned }): Promise<ActionResult> =>
    fromApi(await owned.api.call('PATCH /dispute/:id/add-dispute-amount', { param: { id: dispute_id }, json: { dispute_amount, seller_id: owned.record.seller.user_id }, idempotencyKey: idempotency_key })),
);

export const approveAmount = guarded(
  { input: DisputeIntentInput, owns: disputeBy(['buyer'], 'Only the buyer approves the proposed amount.') },
  async ({ dispute_id, idempotency_key }, { owned }): Promise<ActionResult> =>
    fromApi(await owned.api.call('PATCH /dispute/:id/approve-dispute-amount', { param: { id: dispute_id }, json: { buyer_id: owned.record.buyer.user_id }, idempotencyKey: idempotency_key })),
);

export const rejectAmount = guarded(
  { input: RejectAmountInput, owns: disputeBy(['buyer'], 'Only the buyer rejects the proposed amount.') },
  async ({ dispute_id, idempotency_key, reason }, { owned }): Promise<ActionResult> => {
    const body = { buyer_id: owned.record.buyer.user_id, ...(reason ? { reason } : {}) };
    return fromApi(await owned.api.call('PATCH /dispute/:id/reject-dispute-amount', { param: { id: dispute_id }, json: body, idempotencyKey: idempotency_key }));
  },
);

/** The buyer offers the amount it is prepared to pay the seller (docs/decisions.md §13). */
export const counterOffer = guarded(
  { input: CounterOfferInput, owns: disputeBy(['buyer'], 'Only the buyer makes a counter-offer.') },
  async ({ dispute_id, idempotency_key, amount }, { owned }): Promise<ActionResult> =>
    fromApi(await owned.api.call('PATCH /dispute/:id/counter-offer', { param: { id: dispute_id }, json: { buyer_id: owned.record.buyer.user_id, amount }, idempotencyKey: idempotency_key })),
);

export const acceptCounterOffer = guarded(
  { input: DisputeIntentInput, owns: disputeBy(['seller'], "Only the seller accepts the buyer's offer.") },
  async ({ dispute_id, idempotency_key }, { owned }): Promise<ActionResult> =>
    fromApi(await owned.api.call('PATCH /dispute/:id/accept-counter-offer', { param: { id: dispute_id }, json: { seller_id: owned.record.seller.user_id }, idempotencyKey: idempotency_key })),
);

/** Either party acts on escalation and evidence: the body names the one signed in, by its id on the dispute. */
const actingParty = (viewer: 'buyer' | 'seller', d: { buyer: { user_id: string }; seller: { user_id: string } }) =>
  viewer === 'buyer' ? { buyer_id: d.buyer.user_id } : { seller_id: d.seller.user_id };

export const escalateDispute = guarded(
  { input: EscalateInput, owns: disputeBy(['buyer', 'seller'], 'Only the buyer or the seller escalates a dispute.') },
  async ({ dispute_id, idempotency_key }, { owned }): Promise<ActionResult> =>
    fromApi(await owned.api.call('PATCH /dispute/:id/escalate', { param: { id: dispute_id }, json: actingParty(owned.viewer, owned.record), idempotencyKey: idempotency_key })),
);

export const submitEvidence = guarded(
  { input: SubmitEvidenceInput, owns: disputeBy(['buyer', 'seller'], 'Only the buyer or the seller submits evidence.'), words: FORM_WORDS.evidence },
  async ({ dispute_id, idempotency_key, text, files }, { owned }): Promise<ActionResult> =>
    fromApi(await owned.api.call('POST /dispute/:id/evidence', { param: { id: dispute_id }, json: { ...actingParty(owned.viewer, owned.record), text, files }, idempotencyKey: idempotency_key })),
);

/** Either party, once, pushes the evidence window 2 business days later (docs/decisions.md §13). */
export const extendEvidenceWindow = guarded(
  { input: ExtendEvidenceInput, owns: disputeBy(['buyer', 'seller'], 'Only the buyer or the seller extends the evidence window.') },
  async ({ dispute_id, idempotency_key, reason }, { owned }): Promise<ActionResult> =>
    fromApi(await owned.api.call('POST /dispute/:id/evidence/extension', { param: { id: dispute_id }, json: { ...actingParty(owned.viewer, owned.record), reason }, idempotencyKey: idempotency_key })),
);

export const cancelDispute = guarded(
  { input: CancelDisputeInput, owns: disputeBy(['seller'], 'Only the seller withdraws its dispute.') },
  async ({ dispute_id, idempotency_key, cancellation_agreement_details }, { owned }): Promise<ActionResult> =>
    fromApi(await owned.api.call('PATCH /dispute/:id/cancel', { param: { id: dispute_id }, json: { seller_id: owned.record.seller.user_id, cancellation_agreement_details }, idempotencyKey: idempotency_key })),
);
