import 'server-only';
import { createRoute, z } from '@hono/zod-openapi';
import { getDb } from '@/lib/server/db/client';
import { receivePaystackWebhook } from '@/lib/server/payouts/paystack-events';
import { bodyBytes } from '../middleware/body';
import { errorResponses, jsonResponse } from '../operation';
import { ok } from '../respond';
import { router } from '../router';

/** Paystack calls this, not a client: it is authenticated by its signature over the raw body, so it has no key and no Idempotency-Key. */
const paystackWebhook = createRoute({
  method: 'post',
  path: '/providers/paystack/webhook',
  operationId: 'paystackWebhook',
  tags: ['Providers'],
  summary: "Paystack's webhook",
  description:
    'Set this URL as the webhook URL in the Paystack dashboard. Verified with x-paystack-signature (HMAC-SHA512 of the raw body keyed with PAYSTACK_SECRET_KEY): a bad signature is 401 and changes nothing; a repeated event changes nothing. The body is the event Paystack sends ({event, data}), read raw and unvalidated by schema here since the signature is over its exact bytes. Handles transfer.success, transfer.failed, transfer.reversed and charge.success; answers 200 to anything else.',
  security: [],
  responses: { ...jsonResponse(z.object({ result: z.string() })), ...errorResponses(['UNAUTHORIZED', 'INVALID_JSON', 'NOT_FOUND']) },
});

export const providerRoutes = router().openapi(paystackWebhook, async (c) => {
  const raw = (await bodyBytes(c)).toString('utf8');
  const result = await receivePaystackWebhook(await getDb(), raw, c.req.header('x-paystack-signature') ?? null, new Date());
  return ok('Webhook received', { result });
});
