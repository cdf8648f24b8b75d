import { idParam, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { rotateWebhookSecret } from '@/lib/server/services/webhooks';

// The overlap of the two secrets is real time, not a sandbox test clock's.
export const POST = withClient<{ id: string }>(async ({ db, client, params }) =>
  ok('Webhook secret rotated successfully: keep the new secret, it is not shown again', await rotateWebhookSecret(db, client, idParam(params.id, 'webhook_id'), new Date())),
);
