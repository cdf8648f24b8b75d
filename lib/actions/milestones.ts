'use server';

import {
  AnswerExtensionInput,
  DeliverInput,
  MilestoneIntentInput,
  OpenDisputeInput,
  RejectDeliveryInput,
  RequestExtensionInput,
  dueDayToIso,
  type ActionResult,
} from '@/lib/contracts/dashboard';
import { fromApi, guarded, notAllowed, notYours } from '@/lib/server/dashboard/action';
import { FORM_WORDS } from '@/lib/server/dashboard/form-words';
import { auditStaffAction } from '@/lib/server/dashboard/audit';
import { milestoneFor } from '@/lib/server/dashboard/ownership';

// Every action: contract parse + session (guarded), then the milestone is fetched and the signed-in
// person's place on its transaction decides the acting id. Ids in the form are never trusted for identity.

/** The buyer funds from its wallet; an admin of the client may fund on the buyer's behalf (sandbox operations). */
export async function fundMilestone(input: unknown): Promise<ActionResult> {
  return guarded(MilestoneIntentInput, input, async ({ milestone_id, idempotency_key }, actor) => {
    const owned = await milestoneFor(actor, milestone_id);
    if (owned.kind !== 'ok') return notYours('Milestone');
    if (owned.viewer === 'seller') return notAllowed('Only the buyer funds a milestone.');
    const { transaction } = owned.record;
    const result = await owned.api.milestones.fund(milestone_id, { buyer_id: transaction.buyer.user_id, acted_by: owned.viewer === 'admin' ? 'client' : 'buyer' }, idempotency_key);
    if (result.ok && owned.viewer === 'admin') {
      await auditStaffAction(actor, 'fund_on_behalf', { target: milestone_id, detail: { transaction_id: transaction.id, transaction_title: transaction.title, milestone_title: owned.record.title, buyer_id: transaction.buyer.user_id } });
    }
    return fromApi(result);
  });
}

export async function deliverMilestone(input: unknown): Promise<ActionResult> {
  return guarded(DeliverInput, input, async ({ milestone_id, idempotency_key, proofs_of_completion }, actor) => {
    const owned = await milestoneFor(actor, milestone_id);
    if (owned.kind !== 'ok') return notYours('Milestone');
    if (owned.viewer !== 'seller') return notAllowed('Only the seller delivers a milestone.');
    const seller_id = owned.record.transaction.seller.user_id;
    return fromApi(await owned.api.milestones.deliver(milestone_id, { seller_id, proofs_of_completion }, idempotency_key));
  }, { words: FORM_WORDS.deliver });
}

export async function approveDelivery(input: unknown): Promise<ActionResult> {
  return guarded(MilestoneIntentInput, input, async ({ milestone_id, idempotency_key }, actor) => {
    const owned = await milestoneFor(actor, milestone_id);
    if (owned.kind !== 'ok') return notYours('Milestone');
    if (owned.viewer !== 'buyer') return notAllowed('Only the buyer accepts a delivery.');
    return fromApi(await owned.api.milestones.approve(milestone_id, { buyer_id: owned.record.transaction.buyer.user_id }, idempotency_key));
  });
}

export async function rejectDelivery(input: unknown): Promise<ActionResult> {
  return guarded(RejectDeliveryInput, input, async ({ milestone_id, idempotency_key, rejection_reason, proofs_of_return }, actor) => {
    const owned = await milestoneFor(actor, milestone_id);
    if (owned.kind !== 'ok') return notYours('Milestone');
    if (owned.viewer !== 'buyer') return notAllowed('Only the buyer rejects a delivery.');
    const buyer_id = owned.record.transaction.buyer.user_id;
    return fromApi(await owned.api.milestones.reject(milestone_id, { buyer_id, rejection_reason, proofs_of_return }, idempotency_key));
  }, { words: FORM_WORDS.rejectDelivery });
}

export async function approveReturn(input: unknown): Promise<ActionResult> {
  return guarded(MilestoneIntentInput, input, async ({ milestone_id, idempotency_key }, actor) => {
    const owned = await milestoneFor(actor, milestone_id);
    if (owned.kind !== 'ok') return notYours('Milestone');
    if (owned.viewer !== 'seller') return notAllowed('Only the seller answers a return.');
    return fromApi(await owned.api.milestones.approveReturn(milestone_id, { seller_id: owned.record.transaction.seller.user_id }, idempotency_key));
  });
}

export async function disapproveReturn(input: unknown): Promise<ActionResult> {
  return guarded(MilestoneIntentInput, input, async ({ milestone_id, idempotency_key }, actor) => {
    const owned = await milestoneFor(actor, milestone_id);
    if (owned.kind !== 'ok') return notYours('Milestone');
    if (owned.viewer !== 'seller') return notAllowed('Only the seller answers a return.');
    return fromApi(await owned.api.milestones.disapproveReturn(milestone_id, { seller_id: owned.record.transaction.seller.user_id }, idempotency_key));
  });
}

export async function openDispute(input: unknown): Promise<ActionResult<{ dispute_id: string }>> {
  return guarded(OpenDisputeInput, input, async ({ milestone_id, idempotency_key, description }, actor) => {
    const owned = await milestoneFor(actor, milestone_id);
    if (owned.kind !== 'ok') return notYours('Milestone');
    if (owned.viewer === 'admin') return notAllowed('Only the buyer or the seller opens a dispute.');
    const { buyer, seller } = owned.record.transaction;
    const body = { description, milestone_id, buyer_id: buyer.user_id, seller_id: seller.user_id, opened_by: owned.viewer };
    const result = await owned.api.disputes.create(body, idempotency_key);
    return fromApi(result, (dispute) => ({ dispute_id: dispute.id }));
  });
}

/** The seller asks for a later due date on an undelivered milestone (docs/decisions.md §13). */
export async function requestExtension(input: unknown): Promise<ActionResult> {
  return guarded(RequestExtensionInput, input, async ({ milestone_id, due_day, reason, idempotency_key }, actor) => {
    const owned = await milestoneFor(actor, milestone_id);
    if (owned.kind !== 'ok') return notYours('Milestone');
    if (owned.viewer !== 'seller') return notAllowed('Only the seller asks for a later due date.');
    const seller_id = owned.record.transaction.seller.user_id;
    return fromApi(await owned.api.milestones.requestExtension(milestone_id, { seller_id, due_date: dueDayToIso(due_day), reason }, idempotency_key));
  }, { words: FORM_WORDS.requestExtension });
}

/** The buyer approves or declines the seller's request for a later due date. */
export async function answerExtension(input: unknown): Promise<ActionResult> {
  return guarded(AnswerExtensionInput, input, async ({ milestone_id, answer, idempotency_key }, actor) => {
    const owned = await milestoneFor(actor, milestone_id);
    if (owned.kind !== 'ok') return notYours('Milestone');
    if (owned.viewer !== 'buyer') return notAllowed('Only the buyer answers a request for a later due date.');
    const body = { buyer_id: owned.record.transaction.buyer.user_id };
    const send = answer === 'approve' ? owned.api.milestones.approveExtension : owned.api.milestones.declineExtension;
    return fromApi(await send(milestone_id, body, idempotency_key));
  });
}
