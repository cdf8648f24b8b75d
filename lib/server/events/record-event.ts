import 'server-only';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import type { EventTypeName } from '@/lib/contracts/webhooks';
import { events } from '../db/schema';

/** The event types are part of the API contract (lib/contracts/webhooks.ts): one list for both. */
export type EventType = EventTypeName;

/**
 * Writes an event to the outbox inside the caller's database transaction (decisions §9), with the
 * transaction's next sequence number, and queues one delivery per enabled webhook endpoint. Callers
 * that name a transaction hold its row lock, so sequence numbers never collide or skip.
 */
export async function recordEvent(
  tx: Tx,
  a: { clientId: string; type: EventType; transactionId?: string; milestoneId?: string; disputeId?: string; data: unknown; now: Date },
): Promise<string> {
  let sequence: number | null = null;
  if (a.transactionId) {
    const result = await tx.execute(sql`select coalesce(max(sequence), 0) + 1 as next from ${events} where transaction_id = ${a.transactionId}`);
    sequence = Number((result.rows[0] as { next: number | string }).next);
  }
  const id = randomUUID();
  await tx.insert(events).values({
    id,
    clientId: a.clientId,
    type: a.type,
    transactionId: a.transactionId ?? null,
    sequence,
    milestoneId: a.milestoneId ?? null,
    disputeId: a.disputeId ?? null,
    data: a.data,
    createdAt: a.now,
  });
  await tx.execute(sql`
    insert into webhook_deliveries (id, client_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
    select gen_random_uuid(), client_id, id, ${id}, 'pending', 0, ${a.now.toISOString()}::timestamptz, ${a.now.toISOString()}::timestamptz
    from webhook_endpoints where client_id = ${a.clientId} and enabled`);
  return id;
}
