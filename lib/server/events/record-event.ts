import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { EventTypeName } from '@/lib/contracts/webhooks';
import type { DbOrTx } from '../db/client';
import { runAsOneStatement, type Write } from '../db/one-statement';
import { events, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { uuidv7 } from '../ids';

/** The event types are part of the API contract (lib/contracts/webhooks.ts): one list for both. */
export type EventType = EventTypeName;

type EventInput = { clientId: string; type: EventType; transactionId?: string; milestoneId?: string; disputeId?: string; data: unknown; now: Date };

/**
 * An event for the outbox (decisions §9), with the transaction's next sequence number, and one delivery
 * per enabled webhook endpoint: the writes, to run in the caller's statement. Callers that name a
 * transaction hold its row lock, so sequence numbers never collide or skip; a statement holds at most one
 * event of a transaction, since its writes cannot see each other.
 */
export function eventWrites(db: DbOrTx, a: EventInput): { id: string; writes: Write[] } {
  const id = uuidv7();
  const transactionId = a.transactionId ?? null;
  const sequence = transactionId === null ? null : sql<number>`(select coalesce(max(${events.sequence}), 0) + 1 from ${events} where ${events.transactionId} = ${transactionId})`;
  const event = db.insert(events).values({
    id,
    clientId: a.clientId,
    type: a.type,
    transactionId,
    sequence,
    milestoneId: a.milestoneId ?? null,
    disputeId: a.disputeId ?? null,
    data: a.data,
    createdAt: a.now,
  });
  const deliveries = db.insert(webhookDeliveries).select((qb) =>
    qb
      .select({
        id: sql<string>`gen_random_uuid()`.as('id'),
        clientId: webhookEndpoints.clientId,
        endpointId: webhookEndpoints.id,
        eventId: sql<string>`${id}::uuid`.as('event_id'),
        status: sql<'pending'>`'pending'`.as('status'),
        attempts: sql<number>`0`.as('attempts'),
        nextAttemptAt: sql<Date>`${a.now.toISOString()}::timestamptz`.as('next_attempt_at'),
        lastAttemptAt: sql<null>`null`.as('last_attempt_at'),
        lastStatusCode: sql<null>`null`.as('last_status_code'),
        lastError: sql<null>`null`.as('last_error'),
        deliveredAt: sql<null>`null`.as('delivered_at'),
        createdAt: sql<Date>`${a.now.toISOString()}::timestamptz`.as('created_at'),
      })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.clientId, a.clientId), eq(webhookEndpoints.enabled, true))),
  );
  return { id, writes: [event, deliveries] };
}

/** Writes an event and its deliveries now, as one statement inside the caller's database transaction (see eventWrites). */
export async function recordEvent(db: DbOrTx, a: EventInput): Promise<string> {
  const { id, writes } = eventWrites(db, a);
  await runAsOneStatement(db, 'record_event', writes);
  return id;
}
