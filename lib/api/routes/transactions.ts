import 'server-only';
import * as R from '@/lib/contracts/records';
import { actingPartyOf } from '@/lib/contracts/common';
import {
  ApproveCancellationBody,
  CancelTransactionBody,
  CreateTransactionBody,
  DeclineCancellationBody,
  GetTransactionQuery,
  ListTransactionsQuery,
  RateTransactionBody,
  TerminateTransactionBody,
  UpdateTransactionBody,
} from '@/lib/contracts/transactions';
import { answerCancellation, cancelTransaction, terminateTransaction } from '@/lib/server/services/end-transaction';
import { rateTransaction } from '@/lib/server/services/rate-transaction';
import { createTransaction, getTransactionDetail, listTransactions, updateTransaction } from '@/lib/server/services/transactions';
import { baseUrl } from '../middleware/base-url';
import { ACTION_ERRORS, BASE_ERRORS, BODY_ERRORS, jsonBody, operation, pathIds } from '../operation';
import { ok } from '../respond';
import { router } from '../router';

const transactionId = pathIds({ id: 'transaction_id' });

const createTransactionOp = operation({
  method: 'post', path: '/transactions', operationId: 'createTransaction', tag: 'Transactions', auth: 'client',
  summary: 'Create a transaction and its milestones',
  description:
    'Each milestone gets an escrow of balance 0 and its fee, computed now from your fee policy (or from fee_basis_points, which replaces your rate for this transaction; your cap still applies). external_reference, if sent, must be new among your transactions: a repeat is 409 DUPLICATE_EXTERNAL_REFERENCE with existing_id, the transaction that has it. Every due_date must be later than now (for a test key, now on its test clock): one in the past is refused with 400 VALIDATION_ERROR naming milestones.{i}.due_date, and nothing is created. buyer_id and seller_id must be different people, and neither may be deactivated (409 USER_DEACTIVATED).',
  request: { body: jsonBody(CreateTransactionBody) },
  example: {
    title: 'Solar panels for Kaduna farm',
    description: 'Supply and installation of 12 solar panels',
    buyer_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14',
    seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81',
    commission_payer: 'SPLIT_50_50',
    external_reference: 'ORD-2026-1042',
    fee_basis_points: 150,
    metadata: { order_id: 'ORD-2026-1042', channel: 'mobile' },
    milestones: [
      { title: 'Panels delivered to site', description: '12 panels delivered to the farm', amount: 450000, due_date: '2026-12-01T23:59:59.000+01:00', inspection_duration: 3, metadata: { delivery_note: 'DN-77' } },
      { title: 'Installation and commissioning', description: 'Panels installed and producing', amount: 300000, due_date: '2026-12-15T23:59:59.000+01:00', inspection_duration: 5 },
    ],
  },
  response: R.TransactionWithMilestonesRecord,
  errors: [...BODY_ERRORS, 'NOT_FOUND', 'USER_DEACTIVATED', 'DUPLICATE_EXTERNAL_REFERENCE'],
});

const updateTransactionOp = operation({
  method: 'patch', path: '/transactions/{id}', operationId: 'updateTransaction', tag: 'Transactions', auth: 'client',
  summary: "Change a transaction's metadata",
  description:
    'Keys sent with a string value are set, keys set to null or "" are removed, and keys not sent stay as they were. More than 20 keys in all after the change is 400 VALIDATION_ERROR naming metadata, and nothing changes. Metadata is yours: the service never reads it.',
  request: { params: transactionId, body: jsonBody(UpdateTransactionBody) },
  example: { metadata: { order_id: 'ORD-2026-1042', coupon: null } },
  response: R.TransactionWithMilestonesRecord,
  errors: [...BODY_ERRORS, 'NOT_FOUND'],
});

const listTransactionsOp = operation({
  method: 'get', path: '/transactions', operationId: 'listTransactions', tag: 'Transactions', auth: 'client',
  summary: 'List transactions',
  description:
    'Your transactions, newest first by default, filtered by party, status, title, created day and amount; page with `after` (or `page`) and `limit`. Each carries what a list shows: allowed_actions, the current milestone, and whose turn it is (awaiting, next_deadline).',
  request: { query: ListTransactionsQuery },
  response: R.TransactionListRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const getTransactionOp = operation({
  method: 'get', path: '/transactions/{id}', operationId: 'getTransaction', tag: 'Transactions', auth: 'client',
  summary: 'Fetch a transaction with its parties and milestones',
  description:
    "One transaction with its buyer, seller and every milestone, each with its amount, fee, status and deadlines, and whose turn it is (awaiting, next_deadline). include=milestone_logs adds each milestone's log lines, include=disputes each milestone's latest dispute summed up (both: include=milestone_logs,disputes); any other value is 400 VALIDATION_ERROR naming include.",
  request: { params: transactionId, query: GetTransactionQuery },
  response: R.TransactionDetailRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const cancelTransactionOp = operation({
  method: 'post', path: '/transactions/{id}/cancel', operationId: 'cancelTransaction', tag: 'Transactions', auth: 'client', actingParty: 'either',
  summary: 'Either party cancels the transaction',
  description:
    'Send buyer_id or seller_id (the party acting) and a reason. While no escrow holds money it is canceled at once; the buyer also cancels at once once a funded milestone is past its due date undelivered. Otherwise it is a request (cancellation_request) the other party approves or declines. On cancellation every unfinished milestone is CANCELED and its escrow goes back to the buyer in full; completed milestones stay paid. Refused (409) while a milestone is under inspection, being returned or in dispute.',
  request: { params: transactionId, body: jsonBody(CancelTransactionBody) },
  example: { buyer_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14', reason: 'The farm project is postponed to next season.' },
  response: R.TransactionWithMilestonesRecord,
  errors: ACTION_ERRORS,
});

const approveCancellationOp = operation({
  method: 'post', path: '/transactions/{id}/cancel/approve', operationId: 'approveCancellation', tag: 'Transactions', auth: 'client', actingParty: 'either',
  summary: 'The other party approves a cancellation request',
  description: 'Send the id of the party that did not ask (the requester gets 403). The transaction is canceled as POST /cancel describes.',
  request: { params: transactionId, body: jsonBody(ApproveCancellationBody) },
  example: { seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81' },
  response: R.TransactionWithMilestonesRecord,
  errors: ACTION_ERRORS,
});

const declineCancellationOp = operation({
  method: 'post', path: '/transactions/{id}/cancel/decline', operationId: 'declineCancellation', tag: 'Transactions', auth: 'client', actingParty: 'either',
  summary: 'The other party declines a cancellation request',
  description: 'Send the id of the party that did not ask, and optionally why. The request is cleared and the transaction goes on.',
  request: { params: transactionId, body: jsonBody(DeclineCancellationBody) },
  example: { seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81', reason: 'The panels are already on the way.' },
  response: R.TransactionWithMilestonesRecord,
  errors: ACTION_ERRORS,
});

const terminateTransactionOp = operation({
  method: 'post', path: '/transactions/{id}/terminate', operationId: 'terminateTransaction', tag: 'Transactions', auth: 'client', actingParty: 'either',
  summary: 'Either party ends the rest after a resolved dispute',
  description:
    'Once a dispute of the transaction is RESOLVED, either party ends it at once: unfinished milestones CANCELED, their escrows refunded to the buyer, the transaction TERMINATED.',
  request: { params: transactionId, body: jsonBody(TerminateTransactionBody) },
  example: { seller_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81', reason: 'The dispute over the first milestone is settled; we end the rest of the deal here.' },
  response: R.TransactionWithMilestonesRecord,
  errors: ACTION_ERRORS,
});

const rateTransactionOp = operation({
  method: 'post', path: '/transactions/{id}/ratings', operationId: 'rateTransaction', tag: 'Transactions', auth: 'client', actingParty: 'either',
  summary: 'A party rates the other after completion',
  description:
    'Once the transaction is COMPLETED, each party rates the other once: score 1 to 5 and an optional comment. has_buyer_rated / has_seller_rated turn true and the rated user\'s rating {average, count} counts it; a second rating by the same party is 409.',
  request: { params: transactionId, body: jsonBody(RateTransactionBody) },
  example: { buyer_id: '8a3c1f52-6d4e-4b7a-9c21-3e5f7a9b0d14', score: 5, comment: 'Delivered on time and installed well.' },
  response: R.TransactionWithMilestonesRecord,
  errors: ACTION_ERRORS,
});

export const transactionRoutes = router()
  .openapi(createTransactionOp, async (c) =>
    ok('Transaction created successfully', await createTransaction(c.var.db, c.var.client, c.req.valid('json'), c.var.now, baseUrl(c))),
  )
  .openapi(listTransactionsOp, async (c) => ok('Transactions retrieved successfully', await listTransactions(c.var.db, c.var.client, c.req.valid('query'), c.var.now)))
  .openapi(getTransactionOp, async (c) => {
    const include = new Set(c.req.valid('query').include ?? []);
    return ok('Transaction retrieved successfully', await getTransactionDetail(c.var.db, c.var.client, c.req.valid('param').id, c.var.now, include));
  })
  .openapi(updateTransactionOp, async (c) =>
    ok('Transaction updated successfully', await updateTransaction(c.var.db, c.var.client, c.req.valid('param').id, c.req.valid('json'), c.var.now)),
  )
  .openapi(cancelTransactionOp, async (c) => {
    const body = c.req.valid('json');
    const outcome = await cancelTransaction(c.var.db, c.var.client, c.req.valid('param').id, actingPartyOf(body), body.reason, c.var.now);
    return ok(outcome.message, outcome.transaction);
  })
  .openapi(approveCancellationOp, async (c) => {
    const outcome = await answerCancellation(c.var.db, c.var.client, c.req.valid('param').id, actingPartyOf(c.req.valid('json')), 'approve', undefined, c.var.now);
    return ok(outcome.message, outcome.transaction);
  })
  .openapi(declineCancellationOp, async (c) => {
    const body = c.req.valid('json');
    const outcome = await answerCancellation(c.var.db, c.var.client, c.req.valid('param').id, actingPartyOf(body), 'decline', body.reason, c.var.now);
    return ok(outcome.message, outcome.transaction);
  })
  .openapi(rateTransactionOp, async (c) => {
    const { score, comment, ...party } = c.req.valid('json');
    return ok('Rating recorded; thank you', await rateTransaction(c.var.db, c.var.client, c.req.valid('param').id, actingPartyOf(party), { score, comment }, c.var.now));
  })
  .openapi(terminateTransactionOp, async (c) => {
    const body = c.req.valid('json');
    const outcome = await terminateTransaction(c.var.db, c.var.client, c.req.valid('param').id, actingPartyOf(body), body.reason, c.var.now);
    return ok(outcome.message, outcome.transaction);
  });
