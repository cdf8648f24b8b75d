import { expect } from 'vitest';
import { call, expectOk, newDeal, uploadProof, type ApiResponse, type TestClient } from './api';

/** How far a deal's first milestone has been driven, in the order the steps below take it. */
export type Stage = 'pending' | 'funded' | 'delivered' | 'returned' | 'returnRejected' | 'disputed' | 'proposed' | 'escalated' | 'arbitration';
const STAGES: Stage[] = ['pending', 'funded', 'delivered', 'returned', 'returnRejected', 'disputed', 'proposed', 'escalated', 'arbitration'];

/** The milestone or dispute state in which each operation's valid request succeeds; the rest work on a fresh deal. */
export const STAGE_OF: Record<string, Stage> = {
  fundMilestone: 'pending',
  deliverMilestone: 'funded',
  approveDelivery: 'delivered',
  rejectDelivery: 'delivered',
  approveReturn: 'returned',
  disapproveReturn: 'returned',
  createDispute: 'returnRejected',
  listDisputes: 'disputed',
  getDispute: 'disputed',
  addDisputeAmount: 'disputed',
  approveDisputeAmount: 'proposed',
  rejectDisputeAmount: 'proposed',
  escalateDispute: 'disputed',
  cancelDispute: 'disputed',
  submitEvidence: 'escalated',
  operatorDispute: 'disputed',
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
export async function stageMilestone(client: TestClient, target: Stage, send: Send = sendOnce): Promise<StagedMilestone> {
  const deal = await newDeal(client, [1000, 2000], { walletFunds: 10_000 });
  const milestoneId = deal.milestoneIds[0]!;
  const proof = await uploadProof(client);
  const key = client.secretKey;
  const reach = (s: Stage) => STAGES.indexOf(target) >= STAGES.indexOf(s);
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
  return { client, deal, milestoneId, disputeId, proof };
}
