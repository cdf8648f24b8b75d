import { idParam, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { resendDelivery } from '@/lib/server/services/webhooks';

// Deliveries run on the wall clock, not a sandbox test clock.
export const POST = withClient<{ id: string; delivery_id: string }>(async ({ db, client, params }) =>
  ok(
    'Webhook delivery queued to be sent again',
    await resendDelivery(db, client, idParam(params.id, 'webhook_id'), idParam(params.delivery_id, 'delivery_id'), new Date()),
  ),
);
