/** Events and webhook endpoints (decisions §9, §10): request schemas for /v1/events and /v1/webhooks. */
import { z } from 'zod';
import { IdRef, LimitParam, PageParam, ShortText, SortParam, unlessMissing } from './common';

/** Every event type the service records; the server's outbox checks at compile time that it writes no other. */
export const EVENT_TYPES = [
  'transaction.created',
  'wallet.funded',
  'milestone.funded',
  'milestone.delivered',
  'milestone.delivery_accepted',
  'milestone.delivery_rejected',
  'milestone.return_approved',
  'milestone.return_rejected',
  'dispute.created',
  'dispute.amount_proposed',
  'dispute.amount_rejected',
  'dispute.escalated',
  'dispute.evidence_submitted',
  'dispute.resolved',
  'dispute.arbitration_declined',
  'dispute.canceled',
  'webhook.test',
] as const;
export type EventTypeName = (typeof EVENT_TYPES)[number];

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const ListEventsQuery = z.object({
  type: z.enum(EVENT_TYPES, { error: unlessMissing('must be an event type such as milestone.funded') }).optional(),
  transaction_id: IdRef.optional(),
  after: IdRef.optional().meta({ description: 'an event id: only events recorded after it (a cursor for catching up)' }),
  page: PageParam.optional().default(1),
  limit: LimitParam.optional().default(20),
  sort: SortParam.optional().default('ASC').meta({ description: 'ASC (oldest first, the default) or DESC' }),
});
export type ListEventsQuery = z.infer<typeof ListEventsQuery>;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https anywhere; plain http only to this machine, for tests and local development. */
export const WebhookUrl = z
  .url({ protocol: /^https?$/, error: unlessMissing('must be an https URL') })
  .max(2048, 'is at most 2048 characters')
  .superRefine((value, ctx) => {
    // zod runs this check even when the URL check above failed.
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return;
    }
    if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname.toLowerCase())) {
      ctx.addIssue({ code: 'custom', message: 'must be an https URL (plain http only for 127.0.0.1, localhost or [::1])' });
    }
    if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'must not carry a user name or password' });
  })
  .meta({ description: 'https URL that receives the events (plain http only for 127.0.0.1, localhost or [::1])', example: 'https://example.com/escrow/webhooks' });

export const CreateWebhookBody = z.object({
  url: WebhookUrl,
  description: ShortText(500).optional(),
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const ListDeliveriesQuery = z.object({
  status: z.enum(DELIVERY_STATUSES, { error: unlessMissing('must be pending, succeeded or failed') }).optional(),
  page: PageParam.optional().default(1),
  limit: LimitParam.optional().default(20),
  sort: SortParam.optional().default('DESC').meta({ description: 'DESC (newest first, the default) or ASC' }),
});
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;
