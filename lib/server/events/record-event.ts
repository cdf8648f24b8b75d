import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import type { EventTypeName } from '@/lib/contracts/webhooks';
import type { DbOrTx } from '../db/client';
import { runAsOneStatement, type Write } from '../db/one-statement';
import { insertRows } from '../db/recordset';
import { events } from '../db/schema';
import { eventEmailWrites } from '../email/outbox';
import { uuidv7 } from '../ids';

/** The event types are part of the API contract (lib/contracts/webhooks.ts): one list for both. */
export type EventType = EventTypeName;

type EventInput = {
  clientId: string;
  type: EventType;
  transactionId?: string;
  milestoneId?: string;
  disputeId?: string;
  data: unknown;
  now: Date;
  /** An event that must exist once whoever writes it (a deadline's): a second with the same key fails its statement. */
  dedupeKey?: string;
};

/**
 * An event for the outbox (docs/decisions.md §9), with the transaction's next sequence number, and one delivery
 * per enabled webhook endpoint: the writes, to run in the caller's statement. Callers that name a
 * transaction hold its row lock, so sequence numbers never collide or skip; a statement holds at most one
 * event of a transaction, since its writes cannot see each other. The emails the event causes (decisions
 * §15) go into the email outbox in the same statement.
 */
export function eventWrites(a: EventInput): { id: string; writes: Write[] } {
  const id = uuidv7();
  const at = a.now.toISOString();
  const transactionId = a.transactionId ?? null;
  // Both inserts read the same snapshot, so they compute the same number.
  const sequence = sql`case when ${transactionId}::uuid is null then null
    else (select coalesce(max(sequence), 0) + 1 from events where transaction_id = ${transactionId}::uuid) end`;
  return {
    id,
    writes: [
      sql`insert into events (id, client_id, type, transaction_id, sequence, milestone_id, dispute_id, data, dedupe_key, created_at)
        values (
          ${id}::uuid, ${a.clientId}::uuid, ${a.type}, ${transactionId}::uuid, ${sequence},
          ${a.milestoneId ?? null}::uuid, ${a.disputeId ?? null}::uuid, ${JSON.stringify(a.data)}::jsonb, ${a.dedupeKey ?? null}, ${at}::timestamptz
        )`,
      // The event is inserted beside this in the same statement: its id is known, and the foreign key is checked at the end.
      deliveriesOf(a.clientId, sql`(select ${id}::uuid as id, ${at}::timestamptz as created_at, ${transactionId}::uuid as transaction_id, ${sequence} as sequence)`),
      ...eventEmailWrites({ id, clientId: a.clientId, type: a.type, transactionId: a.transactionId, data: a.data, now: a.now }),
    ],
  };
}

/**
 * One pending delivery of each event of `events` (a relation of `id`, `created_at`, `transaction_id`,
 * `sequence`) per enabled endpoint of the client.
 */
export function deliveriesOf(clientId: string, events: SQL): Write {
  return sql`insert into webhook_deliveries (id, client_id, endpoint_id, event_id, transaction_id, sequence, status, attempts, next_attempt_at, created_at)
    select gen_random_uuid(), endpoint.client_id, endpoint.id, e.id, e.transaction_id, e.sequence, 'pending', 0, e.created_at, e.created_at
    from webhook_endpoints endpoint cross join ${events} e where endpoint.client_id = ${clientId}::uuid and endpoint.enabled`;
}

/**
 * eventWrites for many events of one client at once (the deadline runner's batch), each of a different
 * transaction whose row lock the caller holds: a few statements whatever their number.
 */
export function eventsInBulk(clientId: string, list: (Omit<EventInput, 'clientId' | 'transactionId'> & { transactionId: string })[]): Write[] {
  const rows = list.map((a) => ({
    id: uuidv7(),
    clientId,
    type: a.type,
    transactionId: a.transactionId,
    milestoneId: a.milestoneId ?? null,
    disputeId: a.disputeId ?? null,
    data: a.data,
    dedupeKey: a.dedupeKey ?? null,
    createdAt: a.now,
  }));
  if (new Set(rows.map((r) => r.transactionId)).size !== rows.length) throw new Error('one event per transaction in a bulk write: its sequence is read before the statement');
  if (rows.length === 0) return [];
  const nextSequence = (row: string) => sql.raw(`(select coalesce(max(prior.sequence), 0) + 1 from events prior where prior.transaction_id = ${row}.transaction_id)`);
  const forDeliveries = rows.map((r) => ({ id: r.id, created_at: r.createdAt.toISOString(), transaction_id: r.transactionId }));
  return [
    insertRows(events, rows, { sequence: nextSequence('r') }),
    deliveriesOf(
      clientId,
      sql`(select x.id, x.created_at, x.transaction_id, ${nextSequence('x')} as sequence
        from json_to_recordset(${JSON.stringify(forDeliveries)}::json) as x(id uuid, created_at timestamptz, transaction_id uuid))`,
    ),
    ...rows.flatMap((r) => eventEmailWrites({ id: r.id, clientId, type: r.type, transactionId: r.transactionId, data: r.data, now: r.createdAt })),
  ];
}

/** Writes an event and its deliveries now, as one statement inside the caller's database transaction (see eventWrites). */
export async function recordEvent(db: DbOrTx, a: EventInput): Promise<string> {
  const { id, writes } = eventWrites(a);
  await runAsOneStatement(db, 'record_event', writes);
  return id;
}
