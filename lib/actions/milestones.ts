'use server';

import {
  AnswerExtensionInput,
  DeclinePartialAcceptanceInput,
  DeliverInput,
  MilestoneIntentInput,
  OpenDisputeInput,
  ProposePartialAcceptanceInput,
  RefundMilestoneInput,
  RejectDeliveryInput,
  RequestExtensionInput,
  dueDayToIso,
  type ActionResult,
} from '@/lib/contracts/dashboard';
import { fromApi, guarded } from '@/lib/server/dashboard/action';
import { FORM_WORDS } from '@/lib/server/dashboard/form-words';
import { auditStaffAction } from '@/lib/server/dashboard/audit';
import { milestoneBy } from '@/lib/server/dashboard/ownership';

// The milestone is fetched with the person's own client's key, and their place on its transaction decides
// the acting id (guarded's `owns`). Ids in the form are never trusted for identity.

/** The buyer funds from its wallet; an admin of the client may fund on the buyer's behalf (sandbox operations). */
export const fundMilestone = guarded(
  { input: MilestoneIntentInput, owns: milestoneBy(['buyer', 'admin'], 'Only the buyer funds a milestone.') },
  async ({ milestone_id, idempotency_key }, { actor, owned }): Promise<ActionResult> => {
    const { transaction } = owned.record;
    const result = await owned.api.call('POST /milestones/:id/fund', { param: { id: milestone_id }, json: { buyer_id: transaction.buyer.user_id, acted_by: owned.viewer === 'admin' ? 'client' : 'buyer' }, idempotencyKey: idempotency_key });
    if (result.ok && owned.viewer === 'admin') {
      await auditStaffAction(actor, 'fund_on_behalf', { target: milestone_id, detail: { transaction_id: transaction.id, transaction_title: transaction.title, milestone_title: owned.record.title, buyer_id: transaction.buyer.user_id } });
    }
    return fromApi(result);
  },
);

export const deliverMilestone = guarded(
  { input: DeliverInput, owns: milestoneBy(['seller'], 'Only the seller delivers a milestone.'), words: FORM_WORDS.deliver },
  async ({ milestone_id, idempotency_key, proofs_of_completion }, { owned }): Promise<ActionResult> => {
    const seller_id = owned.record.transaction.seller.user_id;
    return fromApi(await owned.api.call('POST /milestones/:id/deliver', { param: { id: milestone_id }, json: { seller_id, proofs_of_completion }, idempotencyKey: idempotency_key }));
  },
);

export const approveDelivery = guarded(
  { input: MilestoneIntentInput, owns: milestoneBy(['buyer'], 'Only the buyer accepts a delivery.') },
  async ({ milestone_id, idempotency_key }, { owned }): Promise<ActionResult> =>
    fromApi(await owned.api.call('POST /milestones/:id/approve', { param: { id: milestone_id }, json: { buyer_id: owned.record.transaction.buyer.user_id }, idempotencyKey: idempotency_key })),
);

export const rejectDelivery = guarded(
  { input: RejectDeliveryInput, owns: milestoneBy(['buyer'], 'Only the buyer rejects a delivery.'), words: FORM_WORDS.rejectDelivery },
  async ({ milestone_id, idempotency_key, rejection_reason, proofs_of_return }, { owned }): Promise<ActionResult> => {
    const buyer_id = owned.record.transaction.buyer.user_id;
    return fromApi(await owned.api.call('POST /milestones/:id/reject', { param: { id: milestone_id }, json: { buyer_id, rejection_reason, proofs_of_return }, idempotencyKey: idempotency_key }));
  },
);

export const approveReturn = guarded(
  { input: MilestoneIntentInput, owns: milestoneBy(['seller'], 'Only the seller answers a return.') },
  async ({ milestone_id, idempotency_key }, { owned }): Promise<ActionResult> =>
    fromApi(await owned.api.call('PATCH /milestones/:id/reject/approve', { param: { id: milestone_id }, json: { seller_id: owned.record.transaction.seller.user_id }, idempotencyKey: idempotency_key })),
);

export const disapproveReturn = guarded(
  { input: MilestoneIntentInput, owns: milestoneBy(['seller'], 'Only the seller answers a return.') },
  async ({ milestone_id, idempotency_key }, { owned }): Promise<ActionResult> =>
    fromApi(await owned.api.call('PATCH /milestones/:id/reject/disapprove', { param: { id: milestone_id }, json: { seller_id: owned.record.transaction.seller.user_id }, idempotencyKey: idempotency_key })),
);

export const openDispute = guarded(
  { input: OpenDisputeInput, owns: milestoneBy(['buyer', 'seller'], 'Only the buyer or the seller opens a dispute.') },
  async ({ milestone_id, idempotency_key, description }, { owned }): Promise<ActionResult<{ dispute_id: string }>> => {
    const { buyer, seller } = owned.record.transaction;
    const body = { description, milestone_id, buyer_id: buyer.user_id, seller_id: seller.user_id, opened_by: owned.viewer };
    const result = await owned.api.call('POST /dispute/create', { json: body, idempotencyKey: idempotency_key });
    return fromApi(result, (dispute) => ({ dispute_id: dispute.id }));
  },
);

/** The seller asks for a later due date on an undelivered milestone (docs/decisions.md §13). */
export const requestExtension = guarded(
  { input: RequestExtensionInput, owns: milestoneBy(['seller'], 'Only the seller asks for a later due date.'), words: FORM_WORDS.requestExtension },
  async ({ milestone_id, due_day, reason, idempotency_key }, { owned }): Promise<ActionResult> => {
    const seller_id = owned.record.transaction.seller.user_id;
    return fromApi(await owned.api.call('POST /milestones/:id/extensions', { param: { id: milestone_id }, json: { seller_id, due_date: dueDayToIso(due_day), reason }, idempotencyKey: idempotency_key }));
  },
);

/** The buyer approves or declines the seller's request for a later due date. */
export const answerExtension = guarded(
  { input: AnswerExtensionInput, owns: milestoneBy(['buyer'], 'Only the buyer answers a request for a later due date.') },
  async ({ milestone_id, answer, idempotency_key }, { owned }): Promise<ActionResult> => {
    const body = { buyer_id: owned.record.transaction.buyer.user_id };
    const operation = answer === 'approve' ? 'PATCH /milestones/:id/extensions/approve' : 'PATCH /milestones/:id/extensions/decline';
    return fromApi(await owned.api.call(operation, { param: { id: milestone_id }, json: body, idempotencyKey: idempotency_key }));
  },
);

/** The seller gives back part or all of what the milestone holds (docs/decisions.md §17). */
export const refundMilestone = guarded(
  { input: RefundMilestoneInput, owns: milestoneBy(['seller'], 'Only the seller refunds a milestone.'), words: FORM_WORDS.refund },
  async ({ milestone_id, amount, reason, idempotency_key }, { owned }): Promise<ActionResult> => {
    const seller_id = owned.record.transaction.seller.user_id;
    return fromApi(await owned.api.call('POST /milestones/:id/refund', { param: { id: milestone_id }, json: { seller_id, amount, reason }, idempotencyKey: idempotency_key }));
  },
);

/** The buyer offers to pay part of a delivery under inspection; the seller answers (docs/decisions.md §17). */
export const proposePartialAcceptance = guarded(
  { input: ProposePartialAcceptanceInput, owns: milestoneBy(['buyer'], 'Only the buyer offers to pay part of a delivery.'), words: FORM_WORDS.proposePartialAcceptance },
  async ({ milestone_id, release_amount, reason, idempotency_key }, { owned }): Promise<ActionResult> => {
    const buyer_id = owned.record.transaction.buyer.user_id;
    return fromApi(await owned.api.call('POST /milestones/:id/partial-acceptance', { param: { id: milestone_id }, json: { buyer_id, release_amount, reason }, idempotencyKey: idempotency_key }));
  },
);

export const acceptPartialAcceptance = guarded(
  { input: MilestoneIntentInput, owns: milestoneBy(['seller'], "Only the seller answers the buyer's offer.") },
  async ({ milestone_id, idempotency_key }, { owned }): Promise<ActionResult> => {
    const seller_id = owned.record.transaction.seller.user_id;
    return fromApi(await owned.api.call('POST /milestones/:id/partial-acceptance/accept', { param: { id: milestone_id }, json: { seller_id }, idempotencyKey: idempotency_key }));
  },
);

export const declinePartialAcceptance = guarded(
  { input: DeclinePartialAcceptanceInput, owns: milestoneBy(['seller'], "Only the seller answers the buyer's offer.") },
  async ({ milestone_id, reason, idempotency_key }, { owned }): Promise<ActionResult> => {
    const seller_id = owned.record.transaction.seller.user_id;
    const json = reason ? { seller_id, reason } : { seller_id };
    return fromApi(await owned.api.call('POST /milestones/:id/partial-acceptance/decline', { param: { id: milestone_id }, json, idempotencyKey: idempotency_key }));
  },
);
