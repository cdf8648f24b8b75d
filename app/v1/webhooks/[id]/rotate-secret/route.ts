import { idParam, withClient } from '@/lib/server/http/route';
import { okShowingSecretOnce } from '@/lib/server/http/shown-once';
import { rotateWebhookSecret } from '@/lib/server/services/webhooks';

// The overlap of the two secrets is real time, not a sandbox test clock's.
export const POST = withClient<{ id: string }>(async ({ db, client, params }) =>
  okShowingSecretOnce(
    'Webhook secret rotated successfully: keep the new secret, it is not shown again',
    await rotateWebhookSecret(db, client, idParam(params.id, 'webhook_id'), new Date()),
    'secret',
    'Secret already rotated by the first request with this Idempotency-Key. The new secret was shown only in that answer, so secret is null here; if it was lost, rotate again with a new Idempotency-Key.',
  ),
);
