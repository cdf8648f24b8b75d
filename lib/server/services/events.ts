import 'server-only';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { pagination } from '@/lib/contracts/common';
import type { EventRecord } from '@/lib/contracts/webhook-records';
import type { EventTypeName, ListEventsQuery } from '@/lib/contracts/webhooks';
import type { Db } from '../db/client';
import { exactTotal } from '../db/list-counts';
import { events } from '../db/schema';
import type { EventType } from '../events/record-event';
import { notFound } from '../app-error';
import { checkPageRequest, pageAndNext, requireCursorRow } from '../db/paged-list';
import type { ClientRow } from '../db/schema';
import { iso } from '../records/iso';

// The outbox's event types and the contract's list must be the same set: the filter and the docs name them all.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const eventTypesMatch: Same<EventType, EventTypeName> = true;
void eventTypesMatch;

export type EventRow = typeof events.$inferSelect;

export function eventRecord(row: EventRow): EventRecord {
  return {
    id: row.id,
    type: row.type as EventTypeName,
    transaction_id: row.transactionId,
    sequence: row.sequence,
    milestone_id: row.milestoneId,
    dispute_id: row.disputeId,
    data: (row.data ?? {}) as Record<string, unknown>,
    created_at: iso(row.createdAt),
  };
}

/** One order for listing and for the `after` cursor: time, then a transaction's sequence, then id. */
const position = sql`(${events.createdAt}, coalesce(${events.sequence}, 0), ${events.id})`;

/** The events recorded after the cursor event, read off the order index (keyset, never OFFSET). */
function recordedAfter(after: string) {
  return sql`${position} > (select ${events.createdAt}, coalesce(${events.sequence}, 0), ${events.id} from ${events} where ${events.id} = ${after})`;
}

/**
 * The client's own events, oldest first unless sort=DESC. `after` (an event id) lists only those recorded
 * after it, in either order: a cursor for catching up (the dashboard's unread bell reads them newest first).
 * So `nextAfter` walks the list in the default, oldest-first order only.
 */
export async function listEvents(db: Db, client: ClientRow, q: ListEventsQuery) {
  checkPageRequest(q);
  if (q.after) await requireCursorRow(db, events, eq(events.clientId, client.id), q.after, 'Event');
  const where = and(
    eq(events.clientId, client.id),
    q.type ? eq(events.type, q.type) : undefined,
    q.transaction_id ? eq(events.transactionId, q.transaction_id) : undefined,
  );
  const direction = q.sort === 'DESC' ? desc : asc;
  // A transaction's own events are few: those are counted; the client's are kept.
  const kept = q.transaction_id ? undefined : ({ list: 'events', scope: client.id, filters: { type: q.type } } as const);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(events)
      .where(q.after ? and(where, recordedAfter(q.after)) : where)
      .orderBy(direction(events.createdAt), direction(sql`coalesce(${events.sequence}, 0)`), direction(events.id))
      .limit(q.limit + 1)
      .offset(q.after ? 0 : (q.page - 1) * q.limit),
    exactTotal(db, kept, events, where),
  ]);
  const { page, nextAfter } = pageAndNext(rows, q.limit, (r) => r.id);
  const cursor = q.sort === 'ASC' ? nextAfter : null;
  return { events: page.map(eventRecord), pagination: pagination(q.page, q.limit, total, cursor, q.after !== undefined) };
}

/** One of the client's own events; another client's reads as not found. */
export async function getEvent(db: Db, client: ClientRow, id: string): Promise<EventRecord> {
  const [row] = await db.select().from(events).where(and(eq(events.clientId, client.id), eq(events.id, id)));
  if (!row) throw notFound('Event', id);
  return eventRecord(row);
}
