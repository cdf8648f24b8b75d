import 'server-only';
import { CheckoutHelperBody, CheckoutListRecord, CheckoutRecord, CreateCheckoutBody, ListCheckoutsQuery } from '@/lib/contracts/checkouts';
import { checkoutRecord, createCheckout, getCheckout, listCheckouts } from '@/lib/server/checkouts/checkouts';
import { failSandboxCheckout, paySandboxCheckout } from '@/lib/server/checkouts/settle';
import { baseUrl } from '../middleware/base-url';
import { BASE_ERRORS, BODY_ERRORS, jsonBody, operation, pathIds } from '../operation';
import { ok } from '../respond';
import { router } from '../router';

const checkoutId = pathIds({ id: 'checkout_id' });

const createCheckoutOp = operation({
  method: 'post', path: '/checkouts', operationId: 'createCheckout', tag: 'Checkouts', auth: 'client',
  summary: 'Start a card payment: fund a milestone or add money to a wallet',
  description:
    'Exactly one of milestone_id (its funding amount is charged, and the milestone is funded once paid) or amount (added to the wallet). Send the buyer to authorization_url; the outcome arrives as checkout.paid, checkout.failed or checkout.expired (30 minutes after creation). A milestone that cannot be funded now is 409 as funding is. Sandbox (test keys): authorization_url is this service’s own page with Pay and Decline. Honours Idempotency-Key.',
  request: { body: jsonBody(CreateCheckoutBody) },
  example: { buyer_id: 'c47e2b9d-1a8f-4e63-b5d0-7f2a9c4e6b81', milestone_id: '1b7e4c2a-9d3f-4e85-a6c1-0f8b2d5e7a93', callback_url: 'https://shop.example.com/paid', metadata: { order: 'A-1042' } },
  response: CheckoutRecord,
  errors: [...BODY_ERRORS, 'NOT_FOUND', 'WRONG_PARTY', 'INVALID_STATE', 'PROVIDER_NOT_CONFIGURED', 'PROVIDER_UNAVAILABLE'],
});

const listCheckoutsOp = operation({
  method: 'get', path: '/checkouts', operationId: 'listCheckouts', tag: 'Checkouts', auth: 'client',
  summary: 'List checkouts, newest first',
  description: 'Your checkouts, newest first, filtered by user or status.',
  request: { query: ListCheckoutsQuery },
  response: CheckoutListRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR'],
});

const getCheckoutOp = operation({
  method: 'get', path: '/checkouts/{id}', operationId: 'getCheckout', tag: 'Checkouts', auth: 'client',
  summary: 'Fetch a checkout',
  description: 'One checkout with its purpose (a milestone or a wallet top-up), amount, status and payment page URL.',
  request: { params: checkoutId },
  response: CheckoutRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const payCheckoutOp = operation({
  method: 'post', path: '/test-helpers/checkouts/{id}/pay', operationId: 'payCheckout', tag: 'Sandbox', auth: 'client',
  summary: 'Sandbox: the buyer pays a checkout',
  description: 'Test keys only. What the sandbox page’s Pay does: a PENDING checkout is PAID, the wallet credited and the milestone funded when it still can be. Another state is 409.',
  request: { params: checkoutId },
  response: CheckoutRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE', 'LIVE_MODE_FORBIDDEN'],
});

const failCheckoutOp = operation({
  method: 'post', path: '/test-helpers/checkouts/{id}/fail', operationId: 'failCheckout', tag: 'Sandbox', auth: 'client',
  summary: 'Sandbox: the payment of a checkout fails',
  description: 'Test keys only. What the sandbox page’s Decline does: a PENDING checkout is FAILED. Another state is 409.',
  request: { params: checkoutId, body: jsonBody(CheckoutHelperBody) },
  example: { reason: 'Card declined by the issuer' },
  response: CheckoutRecord,
  errors: [...BODY_ERRORS, 'NOT_FOUND', 'INVALID_STATE', 'LIVE_MODE_FORBIDDEN'],
});

export const checkoutRoutes = router()
  .openapi(createCheckoutOp, async (c) => ok('Checkout created successfully', await createCheckout(c.var.db, c.var.client, c.req.valid('json'), c.var.now, baseUrl(c))))
  .openapi(listCheckoutsOp, async (c) => ok('Checkouts retrieved successfully', await listCheckouts(c.var.db, c.var.client, c.req.valid('query'), c.var.now)))
  .openapi(getCheckoutOp, async (c) => ok('Checkout retrieved successfully', await getCheckout(c.var.db, c.var.client, c.req.valid('param').id, c.var.now)))
  .openapi(payCheckoutOp, async (c) =>
    ok('Checkout paid', checkoutRecord(await paySandboxCheckout(c.var.db, c.var.client, c.req.valid('param').id, c.var.now), c.var.now)),
  )
  .openapi(failCheckoutOp, async (c) =>
    ok('Checkout failed', checkoutRecord(await failSandboxCheckout(c.var.db, c.var.client, c.req.valid('param').id, c.req.valid('json').reason, c.var.now), c.var.now)),
  );
