import 'server-only';
import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { pagination } from '@/lib/contracts/common';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '@/lib/contracts/webhook-records';
import type { CreateWebhookBody, EventTypeName, ListDeliveriesQuery, ReplayWebhookBody } from '@/lib/contracts/webhooks';
import type { Db, DbOrTx } from '../db/client';
import { queryRows } from '../db/rows';
import { keptTotal } from '../db/list-counts';
import { checkPageRequest, followingRow, pageAndNext, requireCursorRow } from '../db/paged-list';
import { events, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { isSealed, PURPOSE, secretBox } from '../crypto/secret-box';
import { DELIVERY_LEASE_MS, isLeased } from '../events/dispatcher';
import { AppError, invalidState, notFound } from '../app-error';
import type { ClientRow } from '../db/schema';
import { iso, isoOrNull } from '../records/iso';

/** Enabled endpoints per client: each event is sent to every one of them. */
export const MAX_ENABLED_ENDPOINTS = 20;
/** After a rotation the previous secret keeps signing alongside the new one for a day. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type EventRow = typeof events.$inferSelect;

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

function endpointRecord(row: EndpointRow, now: Date): WebhookEndpointRecord {
  const rotating = row.previousSecret !== null && row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    enabled: row.enabled,
    previous_secret_expires_at: rotating ? iso(row.previousSecretExpiresAt!) : null,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

function deliveryRecord(row: DeliveryRow, event: Pick<EventRow, 'type' | 'transactionId' | 'sequence'>): WebhookDeliveryRecord {
  return {
    id: row.id,
    webhook_id: row.endpointId,
    event_id: row.eventId,
    event_type: event.type as EventTypeName,
    transaction_id: event.transactionId,
    sequence: event.sequence,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    last_attempt_at: isoOrNull(row.lastAttemptAt),
    next_attempt_at: row.status === 'pending' ? isoOrNull(row.nextAttemptAt) : null,
    delivered_at: isoOrNull(row.deliveredAt),
    created_at: iso(row.createdAt),
  };
}

/** Another client's endpoint is as unknown as one that does not exist (docs/decisions.md §1). */
async function findEndpoint(db: DbOrTx, clientId: string, id: string, lock = false): Promise<EndpointRow> {
  const query = db.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.clientId, clientId), eq(webhookEndpoints.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Webhook endpoint', id);
  return row;
}

function assertEnabled(row: EndpointRow) {
  if (!row.enabled) throw invalidState(`Webhook endpoint ${row.id} is deleted: register the URL again to receive events.`);
}

export async function createWebhook(db: Db, client: ClientRow, body: CreateWebhookBody, now: Date) {
  return db.transaction(async (tx) => {
    // Serialises concurrent creates of one client, so the limit holds.
    await tx.execute(sql`select id from clients where id = ${client.id} for update`);
    const [enabled] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.clientId, client.id), eq(webhookEndpoints.enabled, true)));
    if ((enabled?.n ?? 0) >= MAX_ENABLED_ENDPOINTS) {
      throw new AppError('LIMIT_EXCEEDED', `A client can have at most ${MAX_ENABLED_ENDPOINTS} webhook endpoints; delete one first.`);
    }
    const secret = newSecret();
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        id: randomUUID(),
        clientId: client.id,
        url: body.url,
        description: body.description ?? null,
        // Kept encrypted: the dispatcher needs it back to sign, so it cannot be a hash.
        secret: secretBox().seal(secret, PURPOSE.webhookSecret),
        enabled: true,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return { ...endpointRecord(row!, now), secret };
  });
}

export async function listWebhooks(db: Db, client: ClientRow, now: Date) {
  const rows = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.clientId, client.id)).orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
  return { webhooks: rows.map((row) => endpointRecord(row, now)) };
}

/** Deleting disables: the delivery log stays readable, and what was still waiting is settled as failed, never sent. */
export async function disableWebhook(db: Db, client: ClientRow, id: string, now: Date) {
  return db.transaction(async (tx) => {
    const row = await findEndpoint(tx, client.id, id, true);
    if (!row.enabled) return endpointRecord(row, now);
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({ enabled: false, previousSecret: null, previousSecretExpiresAt: null, updatedAt: now })
      .where(eq(webhookEndpoints.id, id))
      .returning();
    await tx
      .update(webhookDeliveries)
      .set({ status: 'failed', nextAttemptAt: null, lastError: 'not sent: the webhook endpoint was deleted' })
      .where(and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, 'pending')));
    return endpointRecord(updated!, now);
  });
}

/** A new secret, shown once; the previous one signs alongside it for 24 hours so receivers can switch without a gap. */
export async function rotateWebhookSecret(db: Db, client: ClientRow, id: string, wallNow: Date) {
  return db.transaction(async (tx) => {
    const row = await findEndpoint(tx, client.id, id, true);
    assertEnabled(row);
    const secret = newSecret();
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({
        secret: secretBox().seal(secret, PURPOSE.webhookSecret),
        previousSecret: isSealed(row.secret) ? row.secret : secretBox().seal(row.secret, PURPOSE.webhookSecret),
        previousSecretExpiresAt: new Date(wallNow.getTime() + ROTATION_OVERLAP_MS),
        updatedAt: wallNow,
      })
      .where(eq(webhookEndpoints.id, id))
      .returning();
    return { ...endpointRecord(updated!, wallNow), secret };
  });
}

/**
 * An endpoint's delivery log, by `page` or after a cursor delivery of that endpoint. Deliveries of one
 * statement share their event's creation time; the event's sequence (copied onto the delivery) keeps a
 * transaction's in their order, then the id.
 */
export async function listDeliveries(db: Db, client: ClientRow, id: string, q: ListDeliveriesQuery) {
  checkPageRequest(q);
  await findEndpoint(db, client.id, id);
  const owned = and(eq(webhookDeliveries.clientId, client.id), eq(webhookDeliveries.endpointId, id));
  const where = and(owned, q.status ? eq(webhookDeliveries.status, q.status) : undefined);
  const sequence = sql`coalesce(${webhookDeliveries.sequence}, 0)`;
  if (q.after !== undefined) await requireCursorRow(db, webhookDeliveries, owned, q.after, 'Webhook delivery');
  const direction = q.sort === 'ASC' ? asc : desc;
  const [rows, total] = await Promise.all([
    db
      .select({ delivery: webhookDeliveries, event: { type: events.type, transactionId: events.transactionId, sequence: events.sequence } })
      .from(webhookDeliveries)
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(q.after === undefined ? where : and(where, followingRow(webhookDeliveries, q.sort, q.after, [sequence])))
      .orderBy(direction(webhookDeliveries.createdAt), direction(sequence), direction(webhookDeliveries.id))
      .limit(q.limit + 1)
      .offset(q.after === undefined ? (q.page - 1) * q.limit : 0),
    keptTotal(db, { list: 'webhook_deliveries', scope: id, filters: { status: q.status } }),
  ]);
  const { page, nextAfter } = pageAndNext(rows, q.limit, (r) => r.delivery.id);
  return {
    deliveries: page.map((r) => deliveryRecord(r.delivery, r.event)),
    pagination: pagination(q.page, q.limit, total, nextAfter, q.after !== undefined),
  };
}

async function loadDelivery(db: DbOrTx, clientId: string, endpointId: string, deliveryId: string, lock = false) {
  const query = db
    .select({ delivery: webhookDeliveries, event: { type: events.type, transactionId: events.transactionId, sequence: events.sequence } })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.clientId, clientId), eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.id, deliveryId)));
  const [found] = lock ? await query.for('update', { of: webhookDeliveries }) : await query;
  if (!found) throw notFound('Webhook delivery', deliveryId);
  return found;
}

/**
 * Sends a delivery again now, whatever became of it. One being sent at this moment is left to that
 * attempt (answered as it stands), so a resend never makes two sends of it run at once.
 */
export async function resendDelivery(db: Db, client: ClientRow, endpointId: string, deliveryId: string, wallNow: Date) {
  return db.transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, client.id, endpointId);
    assertEnabled(endpoint);
    const found = await loadDelivery(tx, client.id, endpointId, deliveryId, true);
    if (isLeased(found.delivery, wallNow)) return deliveryRecord(found.delivery, found.event);
    const [updated] = await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: wallNow, deliveredAt: null })
      .where(eq(webhookDeliveries.id, deliveryId))
      .returning();
    return deliveryRecord(updated!, found.event);
  });
}

/** A `webhook.test` event for this endpoint alone (no other endpoint of the client gets it), queued now. */
export async function sendTestEvent(db: Db, client: ClientRow, endpointId: string, now: Date) {
  return db.transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, client.id, endpointId, true);
    assertEnabled(endpoint);
    const [event] = await tx
      .insert(events)
      .values({
        id: randomUUID(),
        clientId: client.id,
        type: 'webhook.test' satisfies EventTypeName,
        transactionId: null,
        sequence: null,
        milestoneId: null,
        disputeId: null,
        data: { webhook_id: endpoint.id, message: 'A test event sent with POST /v1/webhooks/{id}/test.' },
        createdAt: now,
      })
      .returning();
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({ id: randomUUID(), clientId: client.id, endpointId: endpoint.id, eventId: event!.id, status: 'pending', attempts: 0, nextAttemptAt: now, createdAt: now })
      .returning();
    return deliveryRecord(delivery!, event!);
  });
}

/** Where a replay starts: after an event of the client's (in GET /v1/events' order), at an instant, or at the first event. */
async function replayStart(db: DbOrTx, clientId: string, body: ReplayWebhookBody) {
  if (body.since !== undefined) return sql`and e.created_at >= ${new Date(body.since).toISOString()}::timestamptz`;
  if (body.after_event_id === undefined) return sql``;
  const [cursor] = await db
    .select({ createdAt: events.createdAt, sequence: events.sequence })
    .from(events)
    .where(and(eq(events.clientId, clientId), eq(events.id, body.after_event_id)));
  if (!cursor) throw notFound('Event', body.after_event_id);
  return sql`and (e.created_at, coalesce(e.sequence, 0), e.id) > (${cursor.createdAt.toISOString()}::timestamptz, ${cursor.sequence ?? 0}, ${body.after_event_id}::uuid)`;
}

/**
 * Queues every later event of the client again for this endpoint (docs/decisions.md §19). The dispatcher
 * sends each transaction's in sequence order, with the events still arriving queued behind them; each is dated
 * when it was queued (on the client's clock), so the delivery log shows it at the top and its retries last as long as
 * a new one's; originals still waiting for a retry are tried now, so they do not hold the replay back. While any
 * delivery of a replay is pending, the replay runs and another is refused: the endpoint's row lock makes
 * two asked at once see each other. Test events, each meant for one endpoint, are not replayed.
 */
export async function replayWebhook(db: Db, client: ClientRow, endpointId: string, body: ReplayWebhookBody, times: { wallNow: Date; clientNow: Date }): Promise<{ queued: number }> {
  const { wallNow, clientNow } = times;
  return db.transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, client.id, endpointId, true);
    assertEnabled(endpoint);
    // An event id that names nothing is said first: waiting for the running replay would not mend it.
    const start = await replayStart(tx, client.id, body);
    const [running] = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.replay, true)))
      .limit(1);
    if (running) {
      throw new AppError(
        'REPLAY_IN_PROGRESS',
        `A replay to webhook endpoint ${endpoint.id} is still being delivered: start another once its deliveries have gone out (GET /v1/webhooks/${endpoint.id}/deliveries?status=pending).`,
      );
    }
    // An original still waiting for its retry would hold the replay's later events back in its queue until then.
    await tx.execute(sql`update webhook_deliveries set next_attempt_at = ${wallNow.toISOString()}::timestamptz
      where endpoint_id = ${endpoint.id}::uuid and status = 'pending' and not replay and next_attempt_at > ${wallNow.toISOString()}::timestamptz
        and (last_attempt_at is null or next_attempt_at - last_attempt_at <> ${DELIVERY_LEASE_MS} * interval '1 millisecond')`);
    const [counted] = await queryRows<{ queued: number | string }>(
      tx,
      sql`with queued as (
        insert into webhook_deliveries (id, client_id, endpoint_id, event_id, transaction_id, sequence, status, attempts, next_attempt_at, created_at, replay)
        select gen_random_uuid(), e.client_id, ${endpoint.id}::uuid, e.id, e.transaction_id, e.sequence, 'pending', 0, ${wallNow.toISOString()}::timestamptz, ${clientNow.toISOString()}::timestamptz, true
        from events e where e.client_id = ${client.id}::uuid and e.type <> ${'webhook.test' satisfies EventTypeName} ${start}
        returning 1
      ) select count(*) as queued from queued`,
    );
    return { queued: Number(counted?.queued ?? 0) };
  });
}
