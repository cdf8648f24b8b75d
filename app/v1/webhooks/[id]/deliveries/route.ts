import { ListDeliveriesQuery } from '@/lib/contracts/webhooks';
import { idParam, readQuery, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { listDeliveries } from '@/lib/server/services/webhooks';

export const GET = withClient<{ id: string }>(async ({ db, client, params, request }) =>
  ok('Webhook deliveries retrieved successfully', await listDeliveries(db, client, idParam(params.id, 'webhook_id'), readQuery(request, ListDeliveriesQuery))),
);
