import 'server-only';
import {
  BuyerActionBody,
  DeclineExtensionBody,
  DeclinePartialAcceptanceBody,
  DeliverBody,
  ProposePartialAcceptanceBody,
  RefundMilestoneBody,
  RejectDeliveryBody,
  RequestExtensionBody,
  SellerActionBody,
} from '@/lib/contracts/milestones';
import * as R from '@/lib/contracts/records';
import { FundMilestoneBody } from '@/lib/contracts/transactions';
import { approveDelivery } from '@/lib/server/services/approve-delivery';
import { approveReturn } from '@/lib/server/services/approve-return';
import { deliverMilestone } from '@/lib/server/services/deliver-milestone';
import { disapproveReturn } from '@/lib/server/services/disapprove-return';
import { fundMilestone } from '@/lib/server/services/fund-milestone';
import { answerExtension, requestExtension } from '@/lib/server/services/milestone-extensions';
import { getMilestone, presentMilestone } from '@/lib/server/services/milestones';
import { answerPartialAcceptance, proposePartialAcceptance } from '@/lib/server/services/partial-acceptance';
import { refundMilestone } from '@/lib/server/services/refund-milestone';
import { rejectDelivery } from '@/lib/server/services/reject-delivery';
import { baseUrl } from '../middleware/base-url';
import { ACTION_ERRORS, BASE_ERRORS, jsonBody, operation, pathIds } from '../operation';
import { ok } from '../respond';
import { router } from '../router';

const milestoneId = pathIds({ id: 'milestone_id' });

const getMilestoneOp = operation({
  method: 'get', path: '/milestones/{id}', operationId: 'getMilestone', tag: 'Milestones', auth: 'client',
  summary: 'Fetch a milestone with its transaction, escrow and log',
  description: "One milestone with its transaction, the escrow's balance and its log of every step taken on it.",
  request: { params: milestoneId },
  response: R.MilestoneWithLogsRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const fundOp = operation({
  method: 'post', path: '/milestones/{id}/fund', operationId: 'fundMilestone', tag: 'Milestones', auth: 'client', actingParty: 'buyer',
  summary: "Fund a milestone from the buyer's wallet",
  description: "Moves the amount (plus the buyer's share of the fee) into the milestone escrow. Milestones are funded in order.",
  request: { params: milestoneId, body: jsonBody(FundMilestoneBody) },
  example: { buyer_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14' },
  response: R.MilestoneRecord,
  errors: [...ACTION_ERRORS, 'INSUFFICIENT_FUNDS'],
});

const deliverOp = operation({
  method: 'post', path: '/milestones/{id}/deliver', operationId: 'deliverMilestone', tag: 'Milestones', auth: 'client', actingParty: 'seller',
  summary: 'Seller delivers with proof',
  description: 'The milestone goes under inspection for inspection_duration days.',
  request: { params: milestoneId, body: jsonBody(DeliverBody) },
  example: { seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81', proofs_of_completion: ['https://escrow.example.com/v1/files/7d4a2e91-5c3b-4f6a-8e12-9b0c3d5f1a47'] },
  response: R.MilestoneRecord,
  errors: ACTION_ERRORS,
});

const approveOp = operation({
  method: 'post', path: '/milestones/{id}/approve', operationId: 'approveDelivery', tag: 'Milestones', auth: 'client', actingParty: 'buyer',
  summary: 'Buyer accepts the delivery',
  description: "Releases the escrow to the seller less the seller's fee share.",
  request: { params: milestoneId, body: jsonBody(BuyerActionBody) },
  example: { buyer_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14' },
  response: R.MilestoneRecord,
  errors: ACTION_ERRORS,
});

const rejectOp = operation({
  method: 'post', path: '/milestones/{id}/reject', operationId: 'rejectDelivery', tag: 'Milestones', auth: 'client', actingParty: 'buyer',
  summary: 'Buyer rejects the delivery with proof of return',
  description: 'The seller then has 7 days to approve or reject the return.',
  request: { params: milestoneId, body: jsonBody(RejectDeliveryBody) },
  example: { buyer_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14', rejection_reason: 'Six jerrycans were leaking', proofs_of_return: ['https://escrow.example.com/v1/files/3e8b5c17-2a9d-4d4f-b6e3-1c7f0a9d2e58'] },
  response: R.MilestoneRecord,
  errors: ACTION_ERRORS,
});

const approveReturnOp = operation({
  method: 'patch', path: '/milestones/{id}/reject/approve', operationId: 'approveReturn', tag: 'Milestones', auth: 'client', actingParty: 'seller',
  summary: 'Seller approves the return',
  description: 'Everything held is reimbursed to the buyer.',
  request: { params: milestoneId, body: jsonBody(SellerActionBody) },
  example: { seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81' },
  response: R.MilestoneRecord,
  errors: ACTION_ERRORS,
});

const disapproveReturnOp = operation({
  method: 'patch', path: '/milestones/{id}/reject/disapprove', operationId: 'disapproveReturn', tag: 'Milestones', auth: 'client', actingParty: 'seller',
  summary: 'Seller rejects the return',
  description:
    'The funds stay held; either party may then open a dispute. If neither does within 3 business days (the dispute_opening deadline), the service opens it (opened_by system).',
  request: { params: milestoneId, body: jsonBody(SellerActionBody) },
  example: { seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81' },
  response: R.MilestoneRecord,
  errors: ACTION_ERRORS,
});

const requestExtensionOp = operation({
  method: 'post', path: '/milestones/{id}/extensions', operationId: 'requestExtension', tag: 'Milestones', auth: 'client', actingParty: 'seller',
  summary: 'Seller asks to move the due date',
  description:
    'Before delivery, one request at a time: a due_date later than now (for a test key, now on its test clock) and than the current one, else 400 VALIDATION_ERROR naming due_date. The buyer approves or declines it within 3 business days (deadline extension_response); unanswered, it is declined.',
  request: { params: milestoneId, body: jsonBody(RequestExtensionBody) },
  example: { seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81', due_date: '2026-12-15T23:59:59.000+01:00', reason: 'The panels are held at the port for inspection.' },
  response: R.MilestoneRecord,
  errors: ACTION_ERRORS,
});

const approveExtensionOp = operation({
  method: 'patch', path: '/milestones/{id}/extensions/approve', operationId: 'approveExtension', tag: 'Milestones', auth: 'client', actingParty: 'buyer',
  summary: "Buyer approves the seller's extension request",
  description: 'Only before delivery. due_date moves to the requested one; current_extension_index points at this extension.',
  request: { params: milestoneId, body: jsonBody(BuyerActionBody) },
  example: { buyer_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14' },
  response: R.MilestoneRecord,
  errors: ACTION_ERRORS,
});

const declineExtensionOp = operation({
  method: 'patch', path: '/milestones/{id}/extensions/decline', operationId: 'declineExtension', tag: 'Milestones', auth: 'client', actingParty: 'buyer',
  summary: "Buyer declines the seller's extension request",
  description: 'The due date stands; the reason is kept in the milestone log.',
  request: { params: milestoneId, body: jsonBody(DeclineExtensionBody) },
  example: { buyer_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14', reason: 'The farm needs power before the harvest.' },
  response: R.MilestoneRecord,
  errors: ACTION_ERRORS,
});

const refundOp = operation({
  method: 'post', path: '/milestones/{id}/refund', operationId: 'refundMilestone', tag: 'Milestones', auth: 'client', actingParty: 'seller',
  summary: 'Seller refunds part or all of what the milestone holds',
  description:
    "While the milestone holds money and is not with the dispute team (IN_PROGRESS, UNDER_INSPECTION, a return, or a dispute in mediation or evidence). amount is of the price, at most what the escrow still holds of it (else 400 naming amount); the buyer's prepaid fee share on it comes back on top. A refund of everything ends the milestone REFUNDED (and an open dispute over it CANCELED); a pending partial acceptance is withdrawn and inspection restarts.",
  request: { params: milestoneId, body: jsonBody(RefundMilestoneBody) },
  example: { seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81', amount: 15000, reason: 'Two of the ten chairs were out of stock.' },
  response: R.MilestoneRecord,
  errors: ACTION_ERRORS,
});

const proposePartialAcceptanceOp = operation({
  method: 'post', path: '/milestones/{id}/partial-acceptance', operationId: 'proposePartialAcceptance', tag: 'Milestones', auth: 'client', actingParty: 'buyer',
  summary: 'Buyer proposes to pay part of the delivery',
  description:
    "During inspection, one pending at a time: 0 < release_amount < what the escrow holds of the price (else 400 naming release_amount). The inspection deadline gives way to partial_acceptance_response (3 business days): the seller accepts or declines; unanswered, the proposal is accepted. The buyer may still approve or reject in full, which withdraws it.",
  request: { params: milestoneId, body: jsonBody(ProposePartialAcceptanceBody) },
  example: { buyer_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14', release_amount: 60000, reason: 'Four of the ten panels arrived cracked.' },
  response: R.MilestoneRecord,
  errors: ACTION_ERRORS,
});

const acceptPartialAcceptanceOp = operation({
  method: 'post', path: '/milestones/{id}/partial-acceptance/accept', operationId: 'acceptPartialAcceptance', tag: 'Milestones', auth: 'client', actingParty: 'seller',
  summary: "Seller accepts the buyer's partial acceptance",
  description:
    "release_amount goes to the seller less its fee share, the fee charged pro rata on release_amount only; the rest, with the buyer's fee share on it, goes back to the buyer. The milestone is COMPLETED with amount_released and amount_refunded.",
  request: { params: milestoneId, body: jsonBody(SellerActionBody) },
  example: { seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81' },
  response: R.MilestoneRecord,
  errors: ACTION_ERRORS,
});

const declinePartialAcceptanceOp = operation({
  method: 'post', path: '/milestones/{id}/partial-acceptance/decline', operationId: 'declinePartialAcceptance', tag: 'Milestones', auth: 'client', actingParty: 'seller',
  summary: "Seller declines the buyer's partial acceptance",
  description: 'The milestone stays under inspection, whose deadline restarts from the decline (inspection_duration days).',
  request: { params: milestoneId, body: jsonBody(DeclinePartialAcceptanceBody) },
  example: { seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81', reason: 'The panels left our warehouse intact; see the signed waybill.' },
  response: R.MilestoneRecord,
  errors: ACTION_ERRORS,
});

export const milestoneRoutes = router()
  .openapi(getMilestoneOp, async (c) => ok('Milestone retrieved successfully', await getMilestone(c.var.db, c.var.client, c.req.valid('param').id)))
  .openapi(fundOp, async (c) => {
    const { id } = c.req.valid('param');
    const { buyer_id, acted_by } = c.req.valid('json');
    const graph = await fundMilestone(c.var.db, c.var.client, id, buyer_id, c.var.now, acted_by);
    return ok('Milestone funded successfully', presentMilestone(graph, id));
  })
  .openapi(deliverOp, async (c) => {
    const { id } = c.req.valid('param');
    const graph = await deliverMilestone(c.var.db, c.var.client, id, c.req.valid('json'), c.var.now, baseUrl(c));
    return ok('Milestone delivered successfully; it is now under inspection', presentMilestone(graph, id));
  })
  .openapi(approveOp, async (c) => {
    const { id } = c.req.valid('param');
    const graph = await approveDelivery(c.var.db, c.var.client, id, c.req.valid('json').buyer_id, c.var.now);
    return ok('Delivery accepted; funds released to the seller', presentMilestone(graph, id));
  })
  .openapi(rejectOp, async (c) => {
    const { id } = c.req.valid('param');
    const graph = await rejectDelivery(c.var.db, c.var.client, id, c.req.valid('json'), c.var.now, baseUrl(c));
    return ok('Delivery rejected; waiting for the seller to answer the return', presentMilestone(graph, id));
  })
  .openapi(approveReturnOp, async (c) => {
    const { id } = c.req.valid('param');
    const graph = await approveReturn(c.var.db, c.var.client, id, c.req.valid('json').seller_id, c.var.now);
    return ok('Return approved; funds reimbursed to the buyer', presentMilestone(graph, id));
  })
  .openapi(disapproveReturnOp, async (c) => {
    const { id } = c.req.valid('param');
    const graph = await disapproveReturn(c.var.db, c.var.client, id, c.req.valid('json').seller_id, c.var.now);
    return ok('Return rejected; either party may open a dispute', presentMilestone(graph, id));
  })
  .openapi(requestExtensionOp, async (c) => {
    const { id } = c.req.valid('param');
    const graph = await requestExtension(c.var.db, c.var.client, id, c.req.valid('json'), c.var.now);
    return ok("Extension requested; waiting for the buyer's answer", presentMilestone(graph, id));
  })
  .openapi(approveExtensionOp, async (c) => {
    const { id } = c.req.valid('param');
    const graph = await answerExtension(c.var.db, c.var.client, id, 'approve', c.req.valid('json'), c.var.now);
    return ok('Extension approved; the due date moved', presentMilestone(graph, id));
  })
  .openapi(declineExtensionOp, async (c) => {
    const { id } = c.req.valid('param');
    const graph = await answerExtension(c.var.db, c.var.client, id, 'decline', c.req.valid('json'), c.var.now);
    return ok('Extension declined; the due date stands', presentMilestone(graph, id));
  })
  .openapi(refundOp, async (c) => {
    const { id } = c.req.valid('param');
    const graph = await refundMilestone(c.var.db, c.var.client, id, c.req.valid('json'), c.var.now, baseUrl(c));
    return ok('Refund made to the buyer', presentMilestone(graph, id));
  })
  .openapi(proposePartialAcceptanceOp, async (c) => {
    const { id } = c.req.valid('param');
    const graph = await proposePartialAcceptance(c.var.db, c.var.client, id, c.req.valid('json'), c.var.now);
    return ok("Partial acceptance proposed; waiting for the seller's answer", presentMilestone(graph, id));
  })
  .openapi(acceptPartialAcceptanceOp, async (c) => {
    const { id } = c.req.valid('param');
    const graph = await answerPartialAcceptance(c.var.db, c.var.client, id, 'accept', c.req.valid('json'), c.var.now);
    return ok('Partial acceptance accepted; the release amount went to the seller and the rest back to the buyer', presentMilestone(graph, id));
  })
  .openapi(declinePartialAcceptanceOp, async (c) => {
    const { id } = c.req.valid('param');
    const graph = await answerPartialAcceptance(c.var.db, c.var.client, id, 'decline', c.req.valid('json'), c.var.now);
    return ok('Partial acceptance declined; the milestone is back under inspection', presentMilestone(graph, id));
  });
