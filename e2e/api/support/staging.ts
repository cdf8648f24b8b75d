import { expect } from 'vitest';
import { call, expectOk, inDays, newDeal, uploadProof, type ApiResponse, type TestClient } from './api';

/**
 * How far a deal's first milestone has been driven, in the order the steps below take it; six stages
 * branch off that line: a cancellation or a due-date extension request once funded, a buyer's partial acceptance once
 * delivered, a buyer's counter-offer in a new dispute, a dispute resolved by agreement, and the whole deal completed
 * (both milestones released).
 */
type LineStage = 'pending' | 'funded' | 'delivered' | 'returned' | 'returnRejected' | 'disputed' | 'proposed' | 'escalated' | 'arbitration';
export type Stage = LineStage | 'cancelRequested' | 'extensionRequested' | 'partialProposed' | 'resolved' | 'counterOffered' | 'completed';
const STAGES: LineStage[] = ['pending', 'funded', 'delivered', 'returned', 'returnRejected', 'disputed', 'proposed', 'escalated', 'arbitration'];
const BRANCHES: Record<Exclude<Stage, LineStage>, LineStage> = { cancelRequested: 'funded', extensionRequested: 'funded', partialProposed: 'delivered', resolved: 'proposed', counterOffered: 'disputed', completed: 'pending' };

/** The milestone or dispute state in which each operation's valid request succeeds; the rest work on a fresh deal. */
export const STAGE_OF: Record<string, Stage> = {
  fundMilestone: 'pending',
  deliverMilestone: 'funded',
  approveDelivery: 'delivered',
  resendEmail: 'delivered',
  listEmails: 'delivered',
  rejectDelivery: 'delivered',
  approveReturn: 'returned',
  disapproveReturn: 'returned',
  createDispute: 'returnRejected',
  listDisputes: 'disputed',
  getDispute: 'disputed',
  addDisputeAmount: 'disputed',
  approveDisputeAmount: 'proposed',
  rejectDisputeAmount: 'proposed',
  counterOffer: 'proposed',
  acceptCounterOffer: 'counterOffered',
  escalateDispute: 'disputed',
  extendEvidenceWindow: 'escalated',
  requestExtension: 'funded',
  refundMilestone: 'funded',
  proposePartialAcceptance: 'delivered',
  acceptPartialAcceptance: 'partialProposed',
  declinePartialAcceptance: 'partialProposed',
  approveExtension: 'extensionRequested',
  declineExtension: 'extensionRequested',
  cancelTransaction: 'pending',
  approveCancellation: 'cancelRequested',
  declineCancellation: 'cancelRequested',
  terminateTransaction: 'resolved',
  rateTransaction: 'completed',
  cancelDispute: 'disputed',
  submitEvidence: 'escalated',
  operatorDispute: 'disputed',
  operatorDisputes: 'disputed',
  decideVerdict: 'arbitration',
};

export type Deal = Awaited<ReturnType<typeof newDeal>>;
export type StagedMilestone = { client: TestClient; deal: Deal; milestoneId: string; disputeId: string | null; proof: string };

/** Sends one request as the client; a suite that paces its requests against the rate limit passes its own. */
export type Send = (method: string, path: string, key: string, body?: Record<string, unknown>) => Promise<ApiResponse>;
const sendOnce: Send = (method, path, key, body) => call(method, path, { key, body });

/**
 * A fresh deal of two milestones (the buyer's wallet holding enough for both) whose first milestone
 * the parties have driven to `target`, each step checked to succeed. Reaching 'arbitration' moves the
 * client's test clock, and with it the deadlines of all the client's other deals: stage that far only
 * with a client whose other deals belong to the same test.
 */
export async function stageMilestone(client: TestClient, target: Stage, send: Send = sendOnce, actor: 'buyer' | 'seller' = 'buyer'): Promise<StagedMilestone> {
  const deal = await newDeal(client, [1000, 2000], { walletFunds: 10_000 });
  const milestoneId = deal.milestoneIds[0]!;
  const proof = await uploadProof(client);
  const key = client.secretKey;
  const line = target in BRANCHES ? BRANCHES[target as keyof typeof BRANCHES] : (target as LineStage);
  const reach = (s: LineStage) => STAGES.indexOf(line) >= STAGES.indexOf(s);
  const step = async (method: string, path: string, body?: Record<string, unknown>) => expectOk(await send(method, path, key, body));
  let disputeId: string | null = null;
  if (reach('funded')) await step('POST', `/v1/milestones/${milestoneId}/fund`, { buyer_id: deal.buyer.id });
  if (reach('delivered')) await step('POST', `/v1/milestones/${milestoneId}/deliver`, { seller_id: deal.seller.id, proofs_of_completion: [proof] });
  if (reach('returned')) await step('POST', `/v1/milestones/${milestoneId}/reject`, { buyer_id: deal.buyer.id, rejection_reason: 'Not as described', proofs_of_return: [proof] });
  if (reach('returnRejected')) await step('PATCH', `/v1/milestones/${milestoneId}/reject/disapprove`, { seller_id: deal.seller.id });
  if (reach('disputed')) {
    const dispute = await step('POST', '/v1/dispute/create', { description: 'Return refused', buyer_id: deal.buyer.id, seller_id: deal.seller.id, milestone_id: milestoneId });
    disputeId = dispute.id;
  }
  if (reach('proposed')) await step('PATCH', `/v1/dispute/${disputeId}/add-dispute-amount`, { dispute_amount: 400, seller_id: deal.seller.id });
  if (reach('escalated')) {
    const escalated = await step('PATCH', `/v1/dispute/${disputeId}/escalate`, { seller_id: deal.seller.id });
    expect(escalated.status).toBe('EVIDENCE_SUBMISSION');
  }
  if (reach('arbitration')) {
    // Both parties speak, then the evidence window lapses: ARBITRATION.
    await step('POST', `/v1/dispute/${disputeId}/evidence`, { buyer_id: deal.buyer.id, text: 'Photos of the item as it arrived', files: [proof] });
    await step('POST', `/v1/dispute/${disputeId}/evidence`, { seller_id: deal.seller.id, text: 'The courier receipt' });
    await step('POST', '/v1/test-clock/advance', { days: 10 });
    expect((await step('GET', `/v1/dispute/${disputeId}`)).status, 'the lapsed evidence window settles into arbitration').toBe('ARBITRATION');
  }
  // The party that did not ask answers a cancellation request: `actor` is the one who will answer.
  if (target === 'cancelRequested') {
    const requester = actor === 'buyer' ? 'seller' : 'buyer';
    const asked = await step('POST', `/v1/transactions/${deal.transaction.id}/cancel`, { [`${requester}_id`]: deal[requester].id, reason: 'Plans changed' });
    expect(asked.cancellation_request).toMatchObject({ requested_by: requester });
  }
  if (target === 'extensionRequested') {
    const asked = await step('POST', `/v1/milestones/${milestoneId}/extensions`, { seller_id: deal.seller.id, due_date: inDays(20), reason: 'Supplier delay' });
    expect(asked.extensions.at(-1)).toMatchObject({ status: 'PENDING' });
  }
  if (target === 'partialProposed') {
    const proposed = await step('POST', `/v1/milestones/${milestoneId}/partial-acceptance`, { buyer_id: deal.buyer.id, release_amount: 600, reason: 'Part arrived broken' });
    expect(proposed.partial_acceptance).toMatchObject({ status: 'PENDING' });
  }
  if (target === 'completed') {
    for (const id of deal.milestoneIds) {
      await step('POST', `/v1/milestones/${id}/fund`, { buyer_id: deal.buyer.id });
      await step('POST', `/v1/milestones/${id}/deliver`, { seller_id: deal.seller.id, proofs_of_completion: [proof] });
      await step('POST', `/v1/milestones/${id}/approve`, { buyer_id: deal.buyer.id });
    }
  }
  if (target === 'counterOffered') {
    const offered = await step('PATCH', `/v1/dispute/${disputeId}/counter-offer`, { buyer_id: deal.buyer.id, amount: 250 });
    expect(offered.dispute_amount_status).toBe('COUNTER_OFFERED');
  }
  if (target === 'resolved') expect((await step('PATCH', `/v1/dispute/${disputeId}/approve-dispute-amount`, { buyer_id: deal.buyer.id })).status).toBe('RESOLVED');
  return { client, deal, milestoneId, disputeId, proof };
}

/** The first milestone of a new deal (₦100,000 unless told), its return rejected by the seller: ready for a dispute. */
export async function returnRejectedDeal(client: TestClient, amounts = [100_000], opts: Parameters<typeof newDeal>[2] = { walletFunds: 100_000 }) {
  const deal = await newDeal(client, amounts, opts);
  const id = deal.milestoneIds[0]!;
  const key = client.secretKey;
  const proof = await uploadProof(client);
  expectOk(await call('POST', `/v1/milestones/${id}/fund`, { key, body: { buyer_id: deal.buyer.id } }));
  expectOk(await call('POST', `/v1/milestones/${id}/deliver`, { key, body: { seller_id: deal.seller.id, proofs_of_completion: [proof] } }));
  expectOk(await call('POST', `/v1/milestones/${id}/reject`, { key, body: { buyer_id: deal.buyer.id, rejection_reason: 'Not as described', proofs_of_return: [proof] } }));
  expectOk(await call('PATCH', `/v1/milestones/${id}/reject/disapprove`, { key, body: { seller_id: deal.seller.id } }));
  return { ...deal, milestoneId: id, proof };
}

/** The dispute over that milestone, opened through the client's key. */
export async function openDispute(client: TestClient, deal: Awaited<ReturnType<typeof returnRejectedDeal>>) {
  return expectOk(
    await call('POST', '/v1/dispute/create', {
      key: client.secretKey,
      body: { description: 'The goods matched the order', buyer_id: deal.buyer.id, seller_id: deal.seller.id, milestone_id: deal.milestoneId },
    }),
  );
}
