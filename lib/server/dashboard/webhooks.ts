import 'server-only';
import type { DeliveriesView, DeliveryPayloadView, WebhooksView } from '@/lib/contracts/dashboard-disputes';
import { webhookPayload } from '@/lib/contracts/webhook-records';
import { escrowFor } from '../escrow-client';
import type { ClientActor } from './actor';
import type { View } from './views';

/** The client's endpoints (never their secrets: the API does not return them after creation). */
export async function webhooksView(actor: ClientActor): Promise<View<WebhooksView>> {
  const result = await escrowFor(actor).call('GET /webhooks');
  return result.ok ? { kind: 'ok', view: { webhooks: result.data.webhooks } } : { kind: 'error', failure: result };
}

/** One endpoint of the client's and a page of its delivery log, newest first. */
export async function deliveriesView(actor: ClientActor, webhookId: string, page: number): Promise<View<DeliveriesView>> {
  const api = escrowFor(actor);
  const [list, deliveries] = await Promise.all([api.call('GET /webhooks'), api.call('GET /webhooks/:id/deliveries', { param: { id: webhookId }, query: { page, limit: 20 } })]);
  if (!list.ok) return { kind: 'error', failure: list };
  const webhook = list.data.webhooks.find((w) => w.id === webhookId);
  if (!webhook) return { kind: 'not_found' };
  if (!deliveries.ok) return deliveries.status === 404 || deliveries.status === 400 ? { kind: 'not_found' } : { kind: 'error', failure: deliveries };
  return { kind: 'ok', view: { webhook, deliveries: deliveries.data } };
}

/** The body a delivery of this event POSTs (lib/server/events/dispatcher sends the same shape). */
export async function deliveryPayloadView(actor: ClientActor, eventId: string): Promise<View<DeliveryPayloadView>> {
  const result = await escrowFor(actor).call('GET /events/:id', { param: { id: eventId } });
  if (!result.ok) return result.status === 404 || result.status === 400 ? { kind: 'not_found' } : { kind: 'error', failure: result };
  return { kind: 'ok', view: { event_id: result.data.id, payload: webhookPayload(result.data) } };
}
