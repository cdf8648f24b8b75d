import { CreateWebhookBody } from '@/lib/contracts/webhooks';
import { readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { createWebhook, listWebhooks } from '@/lib/server/services/webhooks';

export const GET = withClient(async ({ db, client }) => ok('Webhook endpoints retrieved successfully', await listWebhooks(db, client, new Date())));

export const POST = withClient(async ({ db, client, request, now }) =>
  ok('Webhook endpoint created successfully: keep the secret, it is not shown again', await createWebhook(db, client, await readJson(request, CreateWebhookBody), now)),
);
