import 'server-only';
import {
  AcceptCounterOfferBody,
  AddDisputeAmountBody,
  ApproveDisputeAmountBody,
  CancelDisputeBody,
  CounterOfferBody,
  CreateDisputeBody,
  EscalateDisputeBody,
  ExtendEvidenceBody,
  ListDisputesQuery,
  RejectDisputeAmountBody,
  SubmitEvidenceBody,
} from '@/lib/contracts/disputes';
import { actingPartyOf } from '@/lib/contracts/common';
import * as R from '@/lib/contracts/records';
import { addDisputeAmount } from '@/lib/server/services/add-dispute-amount';
import { approveDisputeAmount, rejectDisputeAmount } from '@/lib/server/services/answer-dispute-amount';
import { acceptCounterOffer, counterOffer } from '@/lib/server/services/counter-offer';
import { createDispute } from '@/lib/server/services/create-dispute';
import { cancelDispute, escalateDispute, extendEvidenceWindow, submitEvidence } from '@/lib/server/services/dispute-process';
import { getDispute, listDisputes } from '@/lib/server/services/disputes';
import { baseUrl } from '../middleware/base-url';
import { ACTION_ERRORS, BASE_ERRORS, jsonBody, operation, pathIds } from '../operation';
import { ok } from '../respond';
import { router } from '../router';

const disputeId = pathIds({ id: 'dispute_id' });

const createDisputeOp = operation({
  method: 'post', path: '/dispute/create', operationId: 'createDispute', tag: 'Disputes', auth: 'client', actingParty: 'seller',
  summary: 'Open a dispute',
  description:
    'Only on the current milestone after the seller rejected its return. Either party opens it: opened_by names the one acting, the seller unless it says buyer (the buyer need not wait on the seller while its money is held). Both buyer_id and seller_id must be the transaction\'s. If nobody opens it within 3 business days of the rejection, the service does (opened_by system). Mediation runs 3 business days.',
  request: { body: jsonBody(CreateDisputeBody) },
  example: { description: 'Only six of twenty were affected', buyer_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14', seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81', milestone_id: 'e2d91b6a-4f3c-4a8e-b1d7-5c9e0f2a3b68', opened_by: 'seller' },
  response: R.DisputeRecord,
  errors: ACTION_ERRORS,
});

const listDisputesOp = operation({
  method: 'get', path: '/dispute', operationId: 'listDisputes', tag: 'Disputes', auth: 'client',
  summary: 'List disputes',
  description: 'Your disputes, newest first by default, filtered by milestone or status.',
  request: { query: ListDisputesQuery },
  response: R.DisputeListRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const getDisputeOp = operation({
  method: 'get', path: '/dispute/{id}', operationId: 'getDispute', tag: 'Disputes', auth: 'client',
  summary: 'Fetch a dispute with its parties, milestone and proposals',
  description: 'One dispute with its buyer, seller, milestone, the amounts proposed and their answers, and the evidence given.',
  request: { params: disputeId },
  response: R.DisputeWithPartiesRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const addAmountOp = operation({
  method: 'patch', path: '/dispute/{id}/add-dispute-amount', operationId: 'addDisputeAmount', tag: 'Disputes', auth: 'client', actingParty: 'seller',
  summary: 'Seller proposes (or revises) a settlement amount',
  description: 'Between 0 and max_dispute_amount: never above the transaction amount or the milestone payment held.',
  request: { params: disputeId, body: jsonBody(AddDisputeAmountBody) },
  example: { seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81', dispute_amount: 280000 },
  response: R.DisputeWithPartiesRecord,
  errors: [...ACTION_ERRORS, 'DISPUTE_AMOUNT_OUT_OF_RANGE'],
});

const approveAmountOp = operation({
  method: 'patch', path: '/dispute/{id}/approve-dispute-amount', operationId: 'approveDisputeAmount', tag: 'Disputes', auth: 'client', actingParty: 'buyer',
  summary: 'Buyer approves the proposed amount',
  description: 'The amount goes to the seller less its fee share, the rest back to the buyer; the dispute is RESOLVED.',
  request: { params: disputeId, body: jsonBody(ApproveDisputeAmountBody) },
  example: { buyer_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14' },
  response: R.DisputeWithPartiesRecord,
  errors: ACTION_ERRORS,
});

const rejectAmountOp = operation({
  method: 'patch', path: '/dispute/{id}/reject-dispute-amount', operationId: 'rejectDisputeAmount', tag: 'Disputes', auth: 'client', actingParty: 'buyer',
  summary: 'Buyer rejects the proposed amount',
  description: 'The amount status goes back to PENDING and the reason is kept in the proposal history.',
  request: { params: disputeId, body: jsonBody(RejectDisputeAmountBody) },
  example: { buyer_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14', reason: 'Fourteen sound jerrycans are worth less than that.' },
  response: R.DisputeWithPartiesRecord,
  errors: ACTION_ERRORS,
});

const counterOfferOp = operation({
  method: 'patch', path: '/dispute/{id}/counter-offer', operationId: 'counterOffer', tag: 'Disputes', auth: 'client', actingParty: 'buyer',
  summary: 'Buyer offers the amount it is prepared to pay',
  description:
    "During mediation, 0 up to max_dispute_amount: the seller's share the buyer offers. It answers the seller's standing proposal (REJECTED, with the reason) or replaces the buyer's earlier offer; dispute_amount_status COUNTER_OFFERED, counter_offer_amount holds it. The seller accepts it or proposes again.",
  request: { params: disputeId, body: jsonBody(CounterOfferBody) },
  example: { buyer_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14', amount: 250000, reason: 'The price of the fourteen sound jerrycans.' },
  response: R.DisputeWithPartiesRecord,
  errors: [...ACTION_ERRORS, 'DISPUTE_AMOUNT_OUT_OF_RANGE'],
});

const acceptCounterOfferOp = operation({
  method: 'patch', path: '/dispute/{id}/accept-counter-offer', operationId: 'acceptCounterOffer', tag: 'Disputes', auth: 'client', actingParty: 'seller',
  summary: "Seller accepts the buyer's offer",
  description: "Settles exactly as an approved amount: the offer to the seller less its fee share, the rest back to the buyer; status RESOLVED, dispute_amount_status APPROVED.",
  request: { params: disputeId, body: jsonBody(AcceptCounterOfferBody) },
  example: { seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81' },
  response: R.DisputeWithPartiesRecord,
  errors: ACTION_ERRORS,
});

const escalateOp = operation({
  method: 'patch', path: '/dispute/{id}/escalate', operationId: 'escalateDispute', tag: 'Disputes', auth: 'client', actingParty: 'either',
  summary: 'Either party escalates to evidence submission',
  description: 'Send buyer_id or seller_id (the party acting). Evidence submission runs 3 business days; mediation that lapses escalates itself.',
  request: { params: disputeId, body: jsonBody(EscalateDisputeBody) },
  example: { buyer_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14' },
  response: R.DisputeWithPartiesRecord,
  errors: ACTION_ERRORS,
});

const evidenceOp = operation({
  method: 'post', path: '/dispute/{id}/evidence', operationId: 'submitEvidence', tag: 'Disputes', auth: 'client', actingParty: 'either',
  summary: 'Either party submits evidence',
  description:
    'Text plus files uploaded with POST /v1/files (each kept with its sha256). Refused once the window has closed. When it closes: one silent party forfeits, both silent → ARBITRATION_DECLINED, otherwise ARBITRATION.',
  request: { params: disputeId, body: jsonBody(SubmitEvidenceBody) },
  example: { seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81', text: 'The waybill shows twenty sealed jerrycans at dispatch.', files: ['https://escrow.example.com/v1/files/7d4a2e91-5c3b-4f6a-8e12-9b0c3d5f1a47'] },
  response: R.DisputeWithPartiesRecord,
  errors: ACTION_ERRORS,
});

const extendEvidenceOp = operation({
  method: 'post', path: '/dispute/{id}/evidence/extension', operationId: 'extendEvidenceWindow', tag: 'Disputes', auth: 'client', actingParty: 'either',
  summary: 'Either party extends the evidence window',
  description: 'Send buyer_id or seller_id (the party asking) and a reason. While EVIDENCE_SUBMISSION, once per party: evidence_submission_end_date moves 2 business days later. A second request by the same party is 409.',
  request: { params: disputeId, body: jsonBody(ExtendEvidenceBody) },
  example: { buyer_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14', reason: 'The courier has not yet sent its damage report.' },
  response: R.DisputeWithPartiesRecord,
  errors: ACTION_ERRORS,
});

const cancelOp = operation({
  method: 'patch', path: '/dispute/{id}/cancel', operationId: 'cancelDispute', tag: 'Disputes', auth: 'client', actingParty: 'seller',
  summary: 'Seller withdraws the dispute',
  description: 'Everything held is refunded to the buyer; status CANCELED.',
  request: { params: disputeId, body: jsonBody(CancelDisputeBody) },
  example: { seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81', cancellation_agreement_details: 'The buyer keeps the sound jerrycans and returns the six leaking ones; we settled it between us.' },
  response: R.DisputeWithPartiesRecord,
  errors: ACTION_ERRORS,
});

export const disputeRoutes = router()
  .openapi(createDisputeOp, async (c) =>
    ok('Dispute created; intra-party mediation has started', await createDispute(c.var.db, c.var.client, c.req.valid('json'), c.var.now, baseUrl(c))),
  )
  .openapi(listDisputesOp, async (c) => ok('Disputes retrieved successfully', await listDisputes(c.var.db, c.var.client, c.req.valid('query'), baseUrl(c))))
  .openapi(getDisputeOp, async (c) => ok('Dispute retrieved successfully', await getDispute(c.var.db, c.var.client, c.req.valid('param').id, baseUrl(c))))
  .openapi(addAmountOp, async (c) =>
    ok(
      'Dispute amount submitted; the buyer has been notified',
      await addDisputeAmount(c.var.db, c.var.client, c.req.valid('param').id, c.req.valid('json'), c.var.now, baseUrl(c)),
    ),
  )
  .openapi(approveAmountOp, async (c) =>
    ok(
      'Dispute amount approved; the dispute is resolved',
      await approveDisputeAmount(c.var.db, c.var.client, c.req.valid('param').id, c.req.valid('json').buyer_id, c.var.now, baseUrl(c)),
    ),
  )
  .openapi(rejectAmountOp, async (c) =>
    ok(
      'Dispute amount rejected; the seller may propose another amount',
      await rejectDisputeAmount(c.var.db, c.var.client, c.req.valid('param').id, c.req.valid('json'), c.var.now, baseUrl(c)),
    ),
  )
  .openapi(counterOfferOp, async (c) =>
    ok('Counter-offer made; the seller has been notified', await counterOffer(c.var.db, c.var.client, c.req.valid('param').id, c.req.valid('json'), c.var.now, baseUrl(c))),
  )
  .openapi(acceptCounterOfferOp, async (c) =>
    ok(
      "The buyer's offer accepted; the dispute is resolved",
      await acceptCounterOffer(c.var.db, c.var.client, c.req.valid('param').id, c.req.valid('json').seller_id, c.var.now, baseUrl(c)),
    ),
  )
  .openapi(escalateOp, async (c) =>
    ok(
      'Dispute escalated; evidence submission is open',
      await escalateDispute(c.var.db, c.var.client, c.req.valid('param').id, actingPartyOf(c.req.valid('json')), c.var.now, baseUrl(c)),
    ),
  )
  .openapi(evidenceOp, async (c) =>
    ok('Evidence submitted', await submitEvidence(c.var.db, c.var.client, c.req.valid('param').id, c.req.valid('json'), c.var.now, baseUrl(c))),
  )
  .openapi(extendEvidenceOp, async (c) =>
    ok(
      'Evidence window extended by 2 business days',
      await extendEvidenceWindow(c.var.db, c.var.client, c.req.valid('param').id, c.req.valid('json'), c.var.now, baseUrl(c)),
    ),
  )
  .openapi(cancelOp, async (c) =>
    ok('Dispute withdrawn; the buyer has been refunded', await cancelDispute(c.var.db, c.var.client, c.req.valid('param').id, c.req.valid('json'), c.var.now, baseUrl(c))),
  );
