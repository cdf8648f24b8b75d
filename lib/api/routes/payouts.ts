import 'server-only';
import { CreatePayoutBody, ListPayoutsQuery, PayoutHelperBody, PayoutListRecord, PayoutRecord } from '@/lib/contracts/payouts';
import { createPayout, failOrReverseSandboxPayout, getPayout, listPayouts } from '@/lib/server/payouts/payouts';
import { BASE_ERRORS, BODY_ERRORS, jsonBody, operation, pathIds } from '../operation';
import { ok } from '../respond';
import { router } from '../router';

const payoutId = pathIds({ id: 'payout_id' });

const createPayoutOp = operation({
  method: 'post', path: '/payouts', operationId: 'createPayout', tag: 'Payouts', auth: 'client',
  summary: "Pay out of a user's wallet to a saved bank account",
  description:
    "Moves the amount out of the wallet at once and sends it to bank_account_id, or to the user's most recently saved account. Sandbox (test keys): PROCESSING at once, PAID 60 seconds later on your clock. Live: PENDING until the payment provider has it. Honours Idempotency-Key.",
  request: { body: jsonBody(CreatePayoutBody) },
  example: { user_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81', amount: 150000, bank_account_id: '1b7e4c2a-9d3f-4e85-a6c1-0f8b2d5e7a93', metadata: { settlement_batch: 'B-2026-11-21' } },
  response: PayoutRecord,
  errors: [...BODY_ERRORS, 'NOT_FOUND', 'NO_BANK_ACCOUNT', 'INSUFFICIENT_FUNDS', 'PROVIDER_NOT_CONFIGURED'],
});

const listPayoutsOp = operation({
  method: 'get', path: '/payouts', operationId: 'listPayouts', tag: 'Payouts', auth: 'client',
  summary: 'List payouts, newest first',
  description: 'Your payouts, newest first, filtered by user, status, created day and amount.',
  request: { query: ListPayoutsQuery },
  response: PayoutListRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const getPayoutOp = operation({
  method: 'get', path: '/payouts/{id}', operationId: 'getPayout', tag: 'Payouts', auth: 'client',
  summary: 'Fetch a payout',
  description: 'One payout with its bank account, amount, status and the provider’s reference.',
  request: { params: payoutId },
  response: PayoutRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const helperDocs = (to: 'FAILED' | 'REVERSED') =>
  ({
    tag: 'Sandbox',
    auth: 'client',
    request: { params: payoutId, body: jsonBody(PayoutHelperBody) },
    example: { reason: to === 'FAILED' ? 'Beneficiary account closed' : 'Returned by the beneficiary bank' },
    response: PayoutRecord,
    errors: [...BODY_ERRORS, 'NOT_FOUND', 'INVALID_STATE', 'LIVE_MODE_FORBIDDEN'],
    description: `Test keys only. ${to === 'FAILED' ? 'A PENDING or PROCESSING payout fails' : 'A PAID payout is returned by the bank'}: its amount goes back to the wallet. Another state is 409.`,
  }) as const;

const failPayoutOp = operation({
  method: 'post', path: '/test-helpers/payouts/{id}/fail', operationId: 'failPayout', summary: 'Sandbox: make a payout fail', ...helperDocs('FAILED'),
});

const reversePayoutOp = operation({
  method: 'post', path: '/test-helpers/payouts/{id}/reverse', operationId: 'reversePayout', summary: 'Sandbox: reverse a paid payout', ...helperDocs('REVERSED'),
});

export const payoutRoutes = router()
  .openapi(createPayoutOp, async (c) => ok('Payout created successfully', await createPayout(c.var.db, c.var.client, c.req.valid('json'), c.var.now)))
  .openapi(listPayoutsOp, async (c) => ok('Payouts retrieved successfully', await listPayouts(c.var.db, c.var.client, c.req.valid('query'))))
  .openapi(getPayoutOp, async (c) => ok('Payout retrieved successfully', await getPayout(c.var.db, c.var.client, c.req.valid('param').id)))
  .openapi(failPayoutOp, async (c) =>
    ok('Payout failed; its amount is back in the wallet', await failOrReverseSandboxPayout(c.var.db, c.var.client, c.req.valid('param').id, 'FAILED', c.req.valid('json').reason, c.var.now)),
  )
  .openapi(reversePayoutOp, async (c) =>
    ok('Payout reversed; its amount is back in the wallet', await failOrReverseSandboxPayout(c.var.db, c.var.client, c.req.valid('param').id, 'REVERSED', c.req.valid('json').reason, c.var.now)),
  );
