import 'server-only';
import type { MiddlewareHandler } from 'hono';
import * as W from '@/lib/contracts/webhook-records';
import { createWebhookBody, ListDeliveriesQuery, ReplayWebhookBody, type WebhookTargetPolicy } from '@/lib/contracts/webhooks';
import { assertResolvedTargetAllowed, webhookTargetPolicy } from '@/lib/server/events/webhook-target';
import {
  createWebhook,
  disableWebhook,
  listDeliveries,
  listWebhooks,
  replayWebhook,
  resendDelivery,
  rotateWebhookSecret,
  sendTestEvent,
} from '@/lib/server/services/webhooks';
import type { ApiEnv } from '../env';
import { BASE_ERRORS, BODY_ERRORS, jsonBody, operation, pathIds } from '../operation';
import { invalidRequest, ok } from '../respond';
import { router } from '../router';
import { okShowingSecretOnce } from '../shown-once';

const bodies = new Map<string, ReturnType<typeof createWebhookBody>>();
const bodyFor = (policy: WebhookTargetPolicy) => {
  const key = `${policy.allowPrivate}:${policy.live}`;
  let body = bodies.get(key);
  if (!body) bodies.set(key, (body = createWebhookBody(policy)));
  return body;
};

/**
 * Where a client's webhooks may point depends on the client (live keys: https only) and the server
 * (ESCROW_WEBHOOKS_ALLOW_PRIVATE): the body is judged by the caller's own policy first. The schema the
 * route declares is the widest policy's, so whatever passes here passes there; its JSON Schema is the
 * same as every policy's (the address rules are refinements).
 */
const underCallersPolicy: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const parsed = bodyFor(webhookTargetPolicy(c.var.client)).safeParse(c.var.json);
  if (!parsed.success) throw invalidRequest(parsed.error);
  await next();
};

const webhookId = pathIds({ id: 'webhook_id' });

const createWebhookOp = operation({
  method: 'post', path: '/webhooks', operationId: 'createWebhook', tag: 'Webhooks', auth: 'client',
  summary: 'Register a webhook endpoint',
  description:
    'Every later event is POSTed to the URL, signed in the Escrow-Signature header. The signing secret (whsec_…) is returned once (an Idempotency-Key replay answers with secret null). https to a public address only: loopback, private, link-local and reserved addresses are refused, here and on the address each delivery connects to. At most 20 endpoints.',
  request: { body: jsonBody(createWebhookBody({ allowPrivate: true, live: false })) },
  example: { url: 'https://example.com/escrow/webhooks', description: 'Order service' },
  middleware: [underCallersPolicy],
  response: W.WebhookEndpointWithSecretRecord,
  errors: [...BODY_ERRORS, 'LIMIT_EXCEEDED'],
});

const listWebhooksOp = operation({
  method: 'get', path: '/webhooks', operationId: 'listWebhooks', tag: 'Webhooks', auth: 'client',
  summary: 'List webhook endpoints (no secrets)',
  description: 'Your webhook endpoints with their URLs and descriptions; a signing secret is shown only in the answer that makes it (creation, rotation).',
  response: W.WebhookEndpointListRecord,
  errors: BASE_ERRORS,
});

const deleteWebhookOp = operation({
  method: 'delete', path: '/webhooks/{id}', operationId: 'deleteWebhook', tag: 'Webhooks', auth: 'client',
  summary: 'Delete (disable) a webhook endpoint',
  description: 'Nothing more is sent to it; deliveries still waiting are marked failed. Its delivery log stays readable.',
  request: { params: webhookId },
  response: W.WebhookEndpointRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const rotateSecretOp = operation({
  method: 'post', path: '/webhooks/{id}/rotate-secret', operationId: 'rotateWebhookSecret', tag: 'Webhooks', auth: 'client',
  summary: 'Rotate the signing secret',
  description:
    'The new secret is returned once (an Idempotency-Key replay answers with secret null). For 24 hours every delivery carries two v1= signatures, by the new and the previous secret.',
  request: { params: webhookId },
  response: W.WebhookEndpointWithSecretRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE'],
});

const listDeliveriesOp = operation({
  method: 'get', path: '/webhooks/{id}/deliveries', operationId: 'listWebhookDeliveries', tag: 'Webhooks', auth: 'client',
  summary: "An endpoint's delivery log, newest first",
  description:
    'Each delivery with its event, status (pending, succeeded, failed), attempts, last status code or error, next attempt and delivery time. Failures are retried with exponential backoff for 3 days after the event.',
  request: { params: webhookId, query: ListDeliveriesQuery },
  response: W.WebhookDeliveryListRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const resendOp = operation({
  method: 'post', path: '/webhooks/{id}/deliveries/{delivery_id}/resend', operationId: 'resendWebhookDelivery', tag: 'Webhooks', auth: 'client',
  summary: 'Send a delivery again now',
  description: 'Whatever its status; a delivery being sent at this moment is left to that attempt.',
  request: { params: pathIds({ id: 'webhook_id', delivery_id: 'delivery_id' }) },
  response: W.WebhookDeliveryRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE'],
});

const testOp = operation({
  method: 'post', path: '/webhooks/{id}/test', operationId: 'testWebhook', tag: 'Webhooks', auth: 'client',
  summary: 'Send a test event to this endpoint',
  description: 'Records a webhook.test event and queues its delivery to this endpoint only.',
  request: { params: webhookId },
  response: W.WebhookDeliveryRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE'],
});

const replayOp = operation({
  method: 'post', path: '/webhooks/{id}/replay', operationId: 'replayWebhook', tag: 'Webhooks', auth: 'client',
  summary: 'Send past events to this endpoint again',
  description:
    "Queues every event of the client recorded after `after_event_id`, or at or after `since`, or (with `{}`) every one, for this endpoint only; answers how many. Each transaction's events go out in sequence order, and events recorded meanwhile wait behind them. One replay per endpoint at a time: another while one is still being delivered is 409 REPLAY_IN_PROGRESS. A deleted endpoint is 409 INVALID_STATE.",
  request: { params: webhookId, body: jsonBody(ReplayWebhookBody) },
  example: { after_event_id: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' },
  response: W.WebhookReplayRecord,
  errors: [...BODY_ERRORS, 'NOT_FOUND', 'INVALID_STATE', 'REPLAY_IN_PROGRESS'],
});

// Secrets' overlap and deliveries run on the wall clock, not a sandbox test clock.
export const webhookRoutes = router()
  .openapi(createWebhookOp, async (c) => {
    const body = c.req.valid('json');
    await assertResolvedTargetAllowed(body.url, webhookTargetPolicy(c.var.client));
    return okShowingSecretOnce(
      c,
      'Webhook endpoint created successfully: keep the secret, it is not shown again',
      await createWebhook(c.var.db, c.var.client, body, c.var.now),
      'secret',
      'Webhook endpoint already created by the first request with this Idempotency-Key. Its secret was shown only in that answer, so secret is null here; if it was lost, get a new one with POST /v1/webhooks/{id}/rotate-secret.',
    );
  })
  .openapi(listWebhooksOp, async (c) => ok('Webhook endpoints retrieved successfully', await listWebhooks(c.var.db, c.var.client, new Date())))
  .openapi(deleteWebhookOp, async (c) => ok('Webhook endpoint deleted successfully', await disableWebhook(c.var.db, c.var.client, c.req.valid('param').id, c.var.now)))
  .openapi(rotateSecretOp, async (c) =>
    okShowingSecretOnce(
      c,
      'Webhook secret rotated successfully: keep the new secret, it is not shown again',
      await rotateWebhookSecret(c.var.db, c.var.client, c.req.valid('param').id, new Date()),
      'secret',
      'Secret already rotated by the first request with this Idempotency-Key. The new secret was shown only in that answer, so secret is null here; if it was lost, rotate again with a new Idempotency-Key.',
    ),
  )
  .openapi(listDeliveriesOp, async (c) =>
    ok('Webhook deliveries retrieved successfully', await listDeliveries(c.var.db, c.var.client, c.req.valid('param').id, c.req.valid('query'))),
  )
  .openapi(resendOp, async (c) => {
    const { id, delivery_id } = c.req.valid('param');
    return ok('Webhook delivery queued to be sent again', await resendDelivery(c.var.db, c.var.client, id, delivery_id, new Date()));
  })
  .openapi(testOp, async (c) => ok('Test event queued for this webhook endpoint', await sendTestEvent(c.var.db, c.var.client, c.req.valid('param').id, c.var.now)))
  .openapi(replayOp, async (c) =>
    ok('Events queued to be sent again to this webhook endpoint', await replayWebhook(c.var.db, c.var.client, c.req.valid('param').id, c.req.valid('json'), { wallNow: new Date(), clientNow: c.var.now })),
  );
