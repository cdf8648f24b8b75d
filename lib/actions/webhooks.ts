'use server';

import type { ActionResult } from '@/lib/contracts/dashboard';
import {
  CreateWebhookInput,
  ResendDeliveryInput,
  WebhookIntentInput,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '@/lib/contracts/dashboard-disputes';
import { ReplayWebhookInput } from '@/lib/contracts/webhooks';
import { fromApi, guarded } from '@/lib/server/dashboard/action';
import { auditStaffAction } from '@/lib/server/dashboard/audit';
import { escrowFor } from '@/lib/server/escrow-client';

const ADMIN_ONLY = 'Only an admin of the marketplace manages its webhooks.';

function urlWithoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '';
  }
}

/** Registers an endpoint; the signing secret comes back in this answer only, for the admin to copy once. */
export const createWebhook = guarded(
  { input: CreateWebhookInput, role: 'admin', refused: ADMIN_ONLY },
  async (values, { actor }): Promise<ActionResult<WebhookEndpointWithSecret>> => {
    const body = { url: values.url, ...(values.description ? { description: values.description } : {}) };
    const result = await escrowFor(actor).call('POST /webhooks', { json: body, idempotencyKey: values.idempotency_key });
    // The URL without its query or fragment, where some receivers put a token; never the signing secret.
    if (result.ok) await auditStaffAction(actor, 'webhook_created', { target: result.data.id, detail: { url: urlWithoutQuery(result.data.url) } });
    return fromApi(result, (endpoint) => endpoint);
  },
);

/** Sends one delivery again now; the API answers 404 for another client's endpoint or delivery. */
export const resendDelivery = guarded(
  { input: ResendDeliveryInput, role: 'admin', refused: ADMIN_ONLY },
  async (values, { actor }): Promise<ActionResult<WebhookDelivery>> => {
    const result = await escrowFor(actor).call('POST /webhooks/:id/deliveries/:delivery_id/resend', { param: { id: values.webhook_id, delivery_id: values.delivery_id }, idempotencyKey: values.idempotency_key });
    if (result.ok) await auditStaffAction(actor, 'webhook_delivery_resent', { target: values.delivery_id, detail: { webhook_id: values.webhook_id } });
    return fromApi(result, (delivery) => delivery);
  },
);

/** Queues a webhook.test event to this endpoint only; its delivery shows in the endpoint's log. */
export const sendTestEvent = guarded(
  { input: WebhookIntentInput, role: 'admin', refused: ADMIN_ONLY },
  async (values, { actor }): Promise<ActionResult<WebhookDelivery>> => {
    const result = await escrowFor(actor).call('POST /webhooks/:id/test', { param: { id: values.webhook_id }, idempotencyKey: values.idempotency_key });
    if (result.ok) await auditStaffAction(actor, 'webhook_test_sent', { target: values.webhook_id, detail: { delivery_id: result.data.id } });
    return fromApi(result, (delivery) => delivery);
  },
);

/**
 * A new signing secret, handed to the admin in this answer only (the dashboard keeps no copy and the
 * audit entry names the endpoint, never the secret). The previous one still signs for 24 hours.
 */
export const rotateWebhookSecret = guarded(
  { input: WebhookIntentInput, role: 'admin', refused: ADMIN_ONLY },
  async (values, { actor }): Promise<ActionResult<WebhookEndpointWithSecret>> => {
    const result = await escrowFor(actor).call('POST /webhooks/:id/rotate-secret', { param: { id: values.webhook_id }, idempotencyKey: values.idempotency_key });
    if (result.ok) await auditStaffAction(actor, 'webhook_secret_rotated', { target: values.webhook_id, detail: { url: urlWithoutQuery(result.data.url) } });
    return fromApi(result, (endpoint) => endpoint);
  },
);

/** Deletes (disables) an endpoint: nothing more is sent to it; its delivery log stays readable. */
export const deleteWebhook = guarded(
  { input: WebhookIntentInput, role: 'admin', refused: ADMIN_ONLY },
  async (values, { actor }): Promise<ActionResult<WebhookEndpoint>> => {
    const result = await escrowFor(actor).call('DELETE /webhooks/:id', { param: { id: values.webhook_id }, idempotencyKey: values.idempotency_key });
    if (result.ok) await auditStaffAction(actor, 'webhook_deleted', { target: values.webhook_id, detail: { url: urlWithoutQuery(result.data.url) } });
    return fromApi(result, (endpoint) => endpoint);
  },
);

/**
 * Queues the client's events again for one endpoint, after an event or since an instant; the toast says how
 * many. The API answers 404 for another client's endpoint or event, and 409 while a replay is still going out.
 */
export const replayWebhook = guarded(
  { input: ReplayWebhookInput, role: 'admin', refused: ADMIN_ONLY },
  async (values, { actor }): Promise<ActionResult<{ queued: number }>> => {
    const json: { after_event_id?: string; since?: string } = values.after_event_id ? { after_event_id: values.after_event_id } : values.since ? { since: values.since } : {};
    const result = await escrowFor(actor).call('POST /webhooks/:id/replay', { param: { id: values.webhook_id }, json, idempotencyKey: values.idempotency_key });
    if (!result.ok) return fromApi(result);
    await auditStaffAction(actor, 'webhook_replayed', { target: values.webhook_id, detail: { after_event_id: json.after_event_id ?? null, since: json.since ?? null, queued: result.data.queued } });
    const { queued } = result.data;
    return { ok: true, message: queued === 1 ? '1 event queued to be sent again' : `${queued} events queued to be sent again`, data: { queued } };
  },
);
