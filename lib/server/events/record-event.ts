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
  const id = randomUUID();
  const at = a.now.toISOString();
  const transactionId = a.transactionId ?? null;
  // One statement: the event with the next sequence number, and its deliveries.
  await tx.execute(sql`
    with event as (
      insert into ${events} (id, client_id, type, transaction_id, sequence, milestone_id, dispute_id, data, created_at)
      values (
        ${id}, ${a.clientId}, ${a.type}, ${transactionId}::uuid,
        case when ${transactionId}::uuid is null then null
             else (select coalesce(max(sequence), 0) + 1 from ${events} where transaction_id = ${transactionId}::uuid) end,
        ${a.milestoneId ?? null}::uuid, ${a.disputeId ?? null}::uuid, ${JSON.stringify(a.data)}::jsonb, ${at}::timestamptz
      )
      returning id, client_id
    )
    insert into webhook_deliveries (id, client_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
    select gen_random_uuid(), endpoint.client_id, endpoint.id, event.id, 'pending', 0, ${at}::timestamptz, ${at}::timestamptz
    from event join webhook_endpoints endpoint on endpoint.client_id = event.client_id and endpoint.enabled`);
  return id;
}
