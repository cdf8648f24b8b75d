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
import { fromApi, guarded, notAllowed } from '@/lib/server/dashboard/action';
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
export async function createWebhook(input: unknown): Promise<ActionResult<WebhookEndpointWithSecret>> {
  return guarded(CreateWebhookInput, input, async (values, actor) => {
    if (actor.kind !== 'admin') return notAllowed(ADMIN_ONLY);
    const body = { url: values.url, ...(values.description ? { description: values.description } : {}) };
    const result = await escrowFor(actor).webhooks.create(body, values.idempotency_key);
    // The URL without its query or fragment, where some receivers put a token; never the signing secret.
    if (result.ok) await auditStaffAction(actor, 'webhook_created', { target: result.data.id, detail: { url: urlWithoutQuery(result.data.url) } });
    return fromApi(result, (endpoint) => endpoint);
  });
}

/** Sends one delivery again now; the API answers 404 for another client's endpoint or delivery. */
export async function resendDelivery(input: unknown): Promise<ActionResult<WebhookDelivery>> {
  return guarded(ResendDeliveryInput, input, async (values, actor) => {
    if (actor.kind !== 'admin') return notAllowed(ADMIN_ONLY);
    const result = await escrowFor(actor).webhooks.resend(values.webhook_id, values.delivery_id, values.idempotency_key);
    if (result.ok) await auditStaffAction(actor, 'webhook_delivery_resent', { target: values.delivery_id, detail: { webhook_id: values.webhook_id } });
    return fromApi(result, (delivery) => delivery);
  });
}

/** Queues a webhook.test event to this endpoint only; its delivery shows in the endpoint's log. */
export async function sendTestEvent(input: unknown): Promise<ActionResult<WebhookDelivery>> {
  return guarded(WebhookIntentInput, input, async (values, actor) => {
    if (actor.kind !== 'admin') return notAllowed(ADMIN_ONLY);
    const result = await escrowFor(actor).webhooks.test(values.webhook_id, values.idempotency_key);
    if (result.ok) await auditStaffAction(actor, 'webhook_test_sent', { target: values.webhook_id, detail: { delivery_id: result.data.id } });
    return fromApi(result, (delivery) => delivery);
  });
}

/**
 * A new signing secret, handed to the admin in this answer only (the dashboard keeps no copy and the
 * audit entry names the endpoint, never the secret). The previous one still signs for 24 hours.
 */
export async function rotateWebhookSecret(input: unknown): Promise<ActionResult<WebhookEndpointWithSecret>> {
  return guarded(WebhookIntentInput, input, async (values, actor) => {
    if (actor.kind !== 'admin') return notAllowed(ADMIN_ONLY);
    const result = await escrowFor(actor).webhooks.rotateSecret(values.webhook_id, values.idempotency_key);
    if (result.ok) await auditStaffAction(actor, 'webhook_secret_rotated', { target: values.webhook_id, detail: { url: urlWithoutQuery(result.data.url) } });
    return fromApi(result, (endpoint) => endpoint);
  });
}

/** Deletes (disables) an endpoint: nothing more is sent to it; its delivery log stays readable. */
export async function deleteWebhook(input: unknown): Promise<ActionResult<WebhookEndpoint>> {
  return guarded(WebhookIntentInput, input, async (values, actor) => {
    if (actor.kind !== 'admin') return notAllowed(ADMIN_ONLY);
    const result = await escrowFor(actor).webhooks.remove(values.webhook_id, values.idempotency_key);
    if (result.ok) await auditStaffAction(actor, 'webhook_deleted', { target: values.webhook_id, detail: { url: urlWithoutQuery(result.data.url) } });
    return fromApi(result, (endpoint) => endpoint);
  });
}
