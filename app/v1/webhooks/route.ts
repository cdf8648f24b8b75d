import { createWebhookBody, type WebhookTargetPolicy } from '@/lib/contracts/webhooks';
import { assertResolvedTargetAllowed, webhookTargetPolicy } from '@/lib/server/events/webhook-target';
import { readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { okShowingSecretOnce } from '@/lib/server/http/shown-once';
import { createWebhook, listWebhooks } from '@/lib/server/services/webhooks';

const bodies = new Map<string, ReturnType<typeof createWebhookBody>>();
const bodyFor = (policy: WebhookTargetPolicy) => {
  const key = `${policy.allowPrivate}:${policy.live}`;
  let body = bodies.get(key);
  if (!body) bodies.set(key, (body = createWebhookBody(policy)));
  return body;
};

export const GET = withClient(async ({ db, client }) => ok('Webhook endpoints retrieved successfully', await listWebhooks(db, client, new Date())));

export const POST = withClient(async ({ db, client, request, now }) => {
  const policy = webhookTargetPolicy(client);
  const body = await readJson(request, bodyFor(policy));
  await assertResolvedTargetAllowed(body.url, policy);
  return okShowingSecretOnce(
    'Webhook endpoint created successfully: keep the secret, it is not shown again',
    await createWebhook(db, client, body, now),
    'secret',
    'Webhook endpoint already created by the first request with this Idempotency-Key. Its secret was shown only in that answer, so secret is null here; if it was lost, get a new one with POST /v1/webhooks/{id}/rotate-secret.',
  );
});
