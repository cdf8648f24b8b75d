import 'server-only';
import { inArray } from 'drizzle-orm';
import { approachingDeadline, deadlineDedupeKey, lapsedDeadline, type DeadlineEventData, type DeadlineEventType } from '@/lib/escrow/deadline-events';
import type { Lapse } from '@/lib/escrow/lapses';
import type { DbOrTx } from '../db/client';
import { runAsOneStatement } from '../db/one-statement';
import { events } from '../db/schema';
import { eventsInBulk, recordEvent } from './record-event';

/**
 * The deadline events of docs/decisions.md §19. Each carries a dedupe key per deadline instant (the
 * events table's unique index), and is written under the row lock of its transaction, as every event
 * with a sequence is; a lapse's come right before the events of what the service does about it.
 */

type Where = { milestoneId?: string; disputeId?: string };

/** The event's milestone and dispute columns, as a lapse names them. */
function whereOf(lapse: Lapse): Where {
  if (lapse.kind === 'cancellation_lapsed') return {};
  return { milestoneId: lapse.milestoneId, disputeId: 'disputeId' in lapse && lapse.deadline !== 'dispute_opening' ? lapse.disputeId : undefined };
}

function eventOf(type: DeadlineEventType, deadline: DeadlineEventData, where: Where, now: Date) {
  return { type, data: deadline, now, dedupeKey: deadlineDedupeKey(type, deadline), ...where };
}

/** A deadline event of one transaction (or of none: a wallet checkout's), written now in the caller's database transaction. */
export async function recordDeadlineEvent(db: DbOrTx, clientId: string, type: DeadlineEventType, deadline: DeadlineEventData, where: Where, now: Date) {
  return recordEvent(db, { clientId, transactionId: deadline.transaction_id ?? undefined, ...eventOf(type, deadline, where, now) });
}

/** What the announcement of a lapsed deadline would have said, had it gone out in time. */
function approachingOf(lapse: Lapse, lapsed: DeadlineEventData): DeadlineEventData {
  return approachingDeadline({
    name: lapse.deadline,
    recordId: lapsed.id,
    transactionId: lapsed.transaction_id!,
    dueAt: lapse.dueAt,
    requestedBy: lapse.kind === 'cancellation_lapsed' ? lapse.requestedBy : null,
  });
}

async function announcedKeys(db: DbOrTx, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.select({ key: events.dedupeKey }).from(events).where(inArray(events.dedupeKey, keys));
  return new Set(rows.map((r) => r.key!));
}

/**
 * Before lapses act (the caller holds each transaction's row lock, at most one lapse per transaction in a
 * call): `deadline.approaching` for a deadline someone owed that was never announced (the service was
 * down, or a test clock jumped past its notice), then `deadline.lapsed`. Two statements, whatever their
 * number: a statement holds one event of a transaction.
 */
export async function announceLapses(tx: DbOrTx, clientId: string, lapses: { transactionId: string; lapse: Lapse }[], now: Date): Promise<void> {
  if (lapses.length === 0) return;
  const lapsed = lapses.map(({ transactionId, lapse }) => ({ transactionId, lapse, deadline: lapsedDeadline(lapse, transactionId) }));
  const owed = lapsed.filter((l) => l.deadline.owed_by !== null).map((l) => ({ ...l, approaching: approachingOf(l.lapse, l.deadline) }));
  const announced = await announcedKeys(
    tx,
    owed.map((l) => deadlineDedupeKey('deadline.approaching', l.approaching)),
  );
  const late = owed.filter((l) => !announced.has(deadlineDedupeKey('deadline.approaching', l.approaching)));
  if (late.length === 1) await recordDeadlineEvent(tx, clientId, 'deadline.approaching', late[0]!.approaching, whereOf(late[0]!.lapse), now);
  else if (late.length > 1) {
    await runAsOneStatement(tx, 'deadlines_approaching_late', eventsInBulk(clientId, late.map((l) => ({ transactionId: l.transactionId, ...eventOf('deadline.approaching', l.approaching, whereOf(l.lapse), now) }))));
  }
  if (lapsed.length === 1) await recordDeadlineEvent(tx, clientId, 'deadline.lapsed', lapsed[0]!.deadline, whereOf(lapsed[0]!.lapse), now);
  else await runAsOneStatement(tx, 'deadlines_lapsed', eventsInBulk(clientId, lapsed.map((l) => ({ transactionId: l.transactionId, ...eventOf('deadline.lapsed', l.deadline, whereOf(l.lapse), now) }))));
}
