import 'server-only';
import { sql } from 'drizzle-orm';
import type { EventTypeName } from '@/lib/contracts/webhooks';
import type { DbOrTx } from '../db/client';
import { runAsOneStatement, type Write } from '../db/one-statement';
import { eventEmailWrites } from '../email/outbox';
import { uuidv7 } from '../ids';

/** The event types are part of the API contract (lib/contracts/webhooks.ts): one list for both. */
export type EventType = EventTypeName;

type EventInput = { clientId: string; type: EventType; transactionId?: string; milestoneId?: string; disputeId?: string; data: unknown; now: Date };

/**
 * An event for the outbox (decisions §9), with the transaction's next sequence number, and one delivery
 * per enabled webhook endpoint: the writes, to run in the caller's statement. Callers that name a
 * transaction hold its row lock, so sequence numbers never collide or skip; a statement holds at most one
 * event of a transaction, since its writes cannot see each other. The emails the event causes (decisions
 * §15) go into the email outbox in the same statement.
 */
export function eventWrites(a: EventInput): { id: string; writes: Write[] } {
  const id = uuidv7();
  const at = a.now.toISOString();
  const transactionId = a.transactionId ?? null;
  return {
    id,
    writes: [
      sql`insert into events (id, client_id, type, transaction_id, sequence, milestone_id, dispute_id, data, created_at)
        values (
          ${id}::uuid, ${a.clientId}::uuid, ${a.type}, ${transactionId}::uuid,
          case when ${transactionId}::uuid is null then null
               else (select coalesce(max(sequence), 0) + 1 from events where transaction_id = ${transactionId}::uuid) end,
          ${a.milestoneId ?? null}::uuid, ${a.disputeId ?? null}::uuid, ${JSON.stringify(a.data)}::jsonb, ${at}::timestamptz
        )`,
      // The event is inserted beside this in the same statement: its id is known, and the foreign key is checked at the end.
      sql`insert into webhook_deliveries (id, client_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
        select gen_random_uuid(), endpoint.client_id, endpoint.id, ${id}::uuid, 'pending', 0, ${at}::timestamptz, ${at}::timestamptz
        from webhook_endpoints endpoint where endpoint.client_id = ${a.clientId}::uuid and endpoint.enabled`,
      ...eventEmailWrites({ id, clientId: a.clientId, type: a.type, transactionId: a.transactionId, data: a.data, now: a.now }),
    ],
  };
}

/** Writes an event and its deliveries now, as one statement inside the caller's database transaction (see eventWrites). */
export async function recordEvent(db: DbOrTx, a: EventInput): Promise<string> {
  const { id, writes } = eventWrites(a);
  await runAsOneStatement(db, 'record_event', writes);
  return id;
}
