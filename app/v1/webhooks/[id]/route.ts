import { idParam, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { disableWebhook } from '@/lib/server/services/webhooks';

export const DELETE = withClient<{ id: string }>(async ({ db, client, params, now }) =>
  ok('Webhook endpoint deleted successfully', await disableWebhook(db, client, idParam(params.id, 'webhook_id'), now)),
);
