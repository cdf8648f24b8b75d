'use server';

import { CounterOfferInput, DisputeIntentInput, ProposeAmountInput, RejectAmountInput, type ActionResult } from '@/lib/contracts/dashboard';
import { CancelDisputeInput, EscalateInput, ExtendEvidenceInput, SubmitEvidenceInput } from '@/lib/contracts/dashboard-disputes';
import { fromApi, guarded, notAllowed, notYours } from '@/lib/server/dashboard/action';
import { FORM_WORDS } from '@/lib/server/dashboard/form-words';
import { disputeFor } from '@/lib/server/dashboard/ownership';

export async function proposeAmount(input: unknown): Promise<ActionResult> {
  return guarded(ProposeAmountInput, input, async ({ dispute_id, idempotency_key, dispute_amount }, actor) => {
    const owned = await disputeFor(actor, dispute_id);
    if (owned.kind !== 'ok') return notYours('Dispute');
    if (owned.viewer !== 'seller') return notAllowed('Only the seller proposes a settlement amount.');
    return fromApi(await owned.api.disputes.addAmount(dispute_id, { dispute_amount, seller_id: owned.record.seller.user_id }, idempotency_key));
  });
}

export async function approveAmount(input: unknown): Promise<ActionResult> {
  return guarded(DisputeIntentInput, input, async ({ dispute_id, idempotency_key }, actor) => {
    const owned = await disputeFor(actor, dispute_id);
    if (owned.kind !== 'ok') return notYours('Dispute');
    if (owned.viewer !== 'buyer') return notAllowed('Only the buyer approves the proposed amount.');
    return fromApi(await owned.api.disputes.approveAmount(dispute_id, { buyer_id: owned.record.buyer.user_id }, idempotency_key));
  });
}

export async function rejectAmount(input: unknown): Promise<ActionResult> {
  return guarded(RejectAmountInput, input, async ({ dispute_id, idempotency_key, reason }, actor) => {
    const owned = await disputeFor(actor, dispute_id);
    if (owned.kind !== 'ok') return notYours('Dispute');
    if (owned.viewer !== 'buyer') return notAllowed('Only the buyer rejects the proposed amount.');
    const body = { buyer_id: owned.record.buyer.user_id, ...(reason ? { reason } : {}) };
    return fromApi(await owned.api.disputes.rejectAmount(dispute_id, body, idempotency_key));
  });
}

/** The buyer offers the amount it is prepared to pay the seller (docs/decisions.md §13). */
export async function counterOffer(input: unknown): Promise<ActionResult> {
  return guarded(CounterOfferInput, input, async ({ dispute_id, idempotency_key, amount }, actor) => {
    const owned = await disputeFor(actor, dispute_id);
    if (owned.kind !== 'ok') return notYours('Dispute');
    if (owned.viewer !== 'buyer') return notAllowed('Only the buyer makes a counter-offer.');
    return fromApi(await owned.api.disputes.counterOffer(dispute_id, { buyer_id: owned.record.buyer.user_id, amount }, idempotency_key));
  });
}

export async function acceptCounterOffer(input: unknown): Promise<ActionResult> {
  return guarded(DisputeIntentInput, input, async ({ dispute_id, idempotency_key }, actor) => {
    const owned = await disputeFor(actor, dispute_id);
    if (owned.kind !== 'ok') return notYours('Dispute');
    if (owned.viewer !== 'seller') return notAllowed("Only the seller accepts the buyer's offer.");
    return fromApi(await owned.api.disputes.acceptCounterOffer(dispute_id, { seller_id: owned.record.seller.user_id }, idempotency_key));
  });
}

/** Either party acts on escalation and evidence: the body names the one signed in, by its id on the dispute. */
const actingParty = (viewer: 'buyer' | 'seller', d: { buyer: { user_id: string }; seller: { user_id: string } }) =>
  viewer === 'buyer' ? { buyer_id: d.buyer.user_id } : { seller_id: d.seller.user_id };

export async function escalateDispute(input: unknown): Promise<ActionResult> {
  return guarded(EscalateInput, input, async ({ dispute_id, idempotency_key }, actor) => {
    const owned = await disputeFor(actor, dispute_id);
    if (owned.kind !== 'ok') return notYours('Dispute');
    if (owned.viewer === 'admin') return notAllowed('Only the buyer or the seller escalates a dispute.');
    return fromApi(await owned.api.disputes.escalate(dispute_id, actingParty(owned.viewer, owned.record), idempotency_key));
  });
}

export async function submitEvidence(input: unknown): Promise<ActionResult> {
  return guarded(SubmitEvidenceInput, input, async ({ dispute_id, idempotency_key, text, files }, actor) => {
    const owned = await disputeFor(actor, dispute_id);
    if (owned.kind !== 'ok') return notYours('Dispute');
    if (owned.viewer === 'admin') return notAllowed('Only the buyer or the seller submits evidence.');
    return fromApi(await owned.api.disputes.submitEvidence(dispute_id, { ...actingParty(owned.viewer, owned.record), text, files }, idempotency_key));
  }, { words: FORM_WORDS.evidence });
}

/** Either party, once, pushes the evidence window 2 business days later (docs/decisions.md §13). */
export async function extendEvidenceWindow(input: unknown): Promise<ActionResult> {
  return guarded(ExtendEvidenceInput, input, async ({ dispute_id, idempotency_key, reason }, actor) => {
    const owned = await disputeFor(actor, dispute_id);
    if (owned.kind !== 'ok') return notYours('Dispute');
    if (owned.viewer === 'admin') return notAllowed('Only the buyer or the seller extends the evidence window.');
    return fromApi(await owned.api.disputes.extendEvidence(dispute_id, { ...actingParty(owned.viewer, owned.record), reason }, idempotency_key));
  });
}

export async function cancelDispute(input: unknown): Promise<ActionResult> {
  return guarded(CancelDisputeInput, input, async ({ dispute_id, idempotency_key, cancellation_agreement_details }, actor) => {
    const owned = await disputeFor(actor, dispute_id);
    if (owned.kind !== 'ok') return notYours('Dispute');
    if (owned.viewer !== 'seller') return notAllowed('Only the seller withdraws its dispute.');
    return fromApi(await owned.api.disputes.cancel(dispute_id, { seller_id: owned.record.seller.user_id, cancellation_agreement_details }, idempotency_key));
  });
}
