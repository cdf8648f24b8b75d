import { idParam, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { sendTestEvent } from '@/lib/server/services/webhooks';

export const POST = withClient<{ id: string }>(async ({ db, client, params, now }) =>
  ok('Test event queued for this webhook endpoint', await sendTestEvent(db, client, idParam(params.id, 'webhook_id'), now)),
);
