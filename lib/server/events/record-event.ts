import 'server-only';
import type { Tx } from '../db/client';
import type { EventTypeName } from '@/lib/contracts/webhooks';
import { WriteBatch, writeName, writeSql } from '../db/write-batch';
import { uuidv7 } from '../ids';

/** The event types are part of the API contract (lib/contracts/webhooks.ts): one list for both. */
export type EventType = EventTypeName;

type EventInput = { clientId: string; type: EventType; transactionId?: string; milestoneId?: string; disputeId?: string; data: unknown; now: Date };

/**
 * Stages an event for the outbox (decisions §9) into the caller's write batch, with the transaction's
 * next sequence number, and one delivery per enabled webhook endpoint. Callers that name a transaction
 * hold its row lock, so sequence numbers never collide or skip; a batch holds at most one event of a
 * transaction, since its writes cannot see each other.
 */
export function stageEvent(batch: WriteBatch, a: EventInput): string {
  const id = uuidv7();
  const at = a.now.toISOString();
  const transactionId = a.transactionId ?? null;
  const event = batch.add(
    writeSql`insert into events (id, client_id, type, transaction_id, sequence, milestone_id, dispute_id, data, created_at)
      values (
        ${id}, ${a.clientId}, ${a.type}, ${transactionId}::uuid,
        case when ${transactionId}::uuid is null then null
             else (select coalesce(max(sequence), 0) + 1 from events where transaction_id = ${transactionId}::uuid) end,
        ${a.milestoneId ?? null}::uuid, ${a.disputeId ?? null}::uuid, ${JSON.stringify(a.data)}::jsonb, ${at}::timestamptz
      )
      returning id, client_id`,
    `event_${batch.size}`,
  );
  batch.add(
    writeSql`insert into webhook_deliveries (id, client_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
      select gen_random_uuid(), endpoint.client_id, endpoint.id, event.id, 'pending', 0, ${at}::timestamptz, ${at}::timestamptz
      from ${writeName(event)} event join webhook_endpoints endpoint on endpoint.client_id = event.client_id and endpoint.enabled`,
  );
  return id;
}

/** Writes an event and its deliveries now, inside the caller's database transaction (see stageEvent). */
export async function recordEvent(tx: Tx, a: EventInput): Promise<string> {
  const batch = new WriteBatch();
  const id = stageEvent(batch, a);
  await batch.flush(tx);
  return id;
}
