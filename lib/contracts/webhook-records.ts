/** Response records of /v1/events and /v1/webhooks (docs/decisions.md §9, §10). */
import { z } from 'zod';
import { Id, NullableTimestamp, Pagination, Timestamp } from './common';
import { DELIVERY_STATUSES, EVENT_TYPES } from './webhooks';

export const EventRecord = z
  .object({
    id: Id,
    type: z.enum(EVENT_TYPES),
    transaction_id: Id.nullable(),
    sequence: z.number().int().nullable().meta({ description: "the event's place among its transaction's events, from 1; null for events of no transaction" }),
    milestone_id: Id.nullable(),
    dispute_id: Id.nullable(),
    data: z.record(z.string(), z.unknown()).meta({ description: 'who acted, whether it was automatic, and the record as it stood after the change' }),
    created_at: Timestamp,
  })
  .strict();
export const EventListRecord = z.object({ events: z.array(EventRecord), pagination: Pagination }).strict();

export const WebhookEndpointRecord = z
  .object({
    id: Id,
    url: z.string(),
    description: z.string().nullable(),
    enabled: z.boolean().meta({ description: 'false once deleted: nothing more is sent to it' }),
    previous_secret_expires_at: NullableTimestamp.meta({ description: 'during a secret rotation: until when deliveries are also signed with the previous secret' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .strict();
export const WebhookEndpointWithSecretRecord = WebhookEndpointRecord.extend({
  secret: z.string().nullable().meta({ description: 'whsec_…: shown once; verify the Escrow-Signature header with it. null in an Idempotency-Key replay, which never shows it again' }),
}).strict();
export const WebhookEndpointListRecord = z.object({ webhooks: z.array(WebhookEndpointRecord) }).strict();

export const WebhookDeliveryRecord = z
  .object({
    id: Id,
    webhook_id: Id,
    event_id: Id,
    event_type: z.enum(EVENT_TYPES),
    transaction_id: Id.nullable(),
    sequence: z.number().int().nullable(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    last_status_code: z.number().int().nullable().meta({ description: "the receiver's HTTP status at the last attempt; null if it could not be reached" }),
    last_error: z.string().nullable(),
    last_attempt_at: NullableTimestamp,
    next_attempt_at: NullableTimestamp.meta({ description: 'while pending: when it is tried (again)' }),
    delivered_at: NullableTimestamp,
    created_at: Timestamp,
  })
  .strict();
export const WebhookDeliveryListRecord = z.object({ deliveries: z.array(WebhookDeliveryRecord), pagination: Pagination }).strict();

export const WebhookReplayRecord = z
  .object({ queued: z.number().int().meta({ description: 'how many events were queued again for this endpoint' }) })
  .strict();

/** The data of `deadline.approaching` and `deadline.lapsed` (docs/decisions.md §19). */
export const DeadlineEventData = z
  .object({
    record: z.enum(['milestone', 'dispute', 'transaction', 'checkout']),
    id: Id,
    transaction_id: Id.nullable(),
    name: z.string(),
    due_at: Timestamp,
    on_lapse: z.string(),
    owed_by: z.enum(['buyer', 'seller', 'both']).nullable(),
  })
  .strict();
export type DeadlineEventData = z.infer<typeof DeadlineEventData>;

export type EventRecord = z.infer<typeof EventRecord>;

/** What a delivery POSTs, key for key: the event as GET /v1/events shows it, minus what a receiver can read from `data`. */
export type WebhookPayload = { id: string; type: string; created_at: string; sequence: number | null; transaction_id: string | null; data: unknown };
export const webhookPayload = (e: WebhookPayload): WebhookPayload => ({
  id: e.id,
  type: e.type,
  created_at: e.created_at,
  sequence: e.sequence,
  transaction_id: e.transaction_id,
  data: e.data,
});
export type WebhookEndpointRecord = z.infer<typeof WebhookEndpointRecord>;
export type WebhookDeliveryRecord = z.infer<typeof WebhookDeliveryRecord>;
