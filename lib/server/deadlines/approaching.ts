import 'server-only';
import { eq, sql, type SQL } from 'drizzle-orm';
import { approachingDeadline } from '@/lib/escrow/deadline-events';
import { DEADLINE_OWED_BY, DEADLINES, type DeadlineName, type DeadlineRule } from '@/lib/escrow/deadlines';
import type { DbOrTx } from '../db/client';
import { queryRows } from '../db/rows';
import { clients } from '../db/schema';
import { recordDeadlineEvent } from '../events/deadline-events';
import { deadlineSource, withinNotice } from './source';

type Approaching = {
  name: DeadlineName;
  record_id: string;
  milestone_id: string | null;
  transaction_id: string;
  client_id: string;
  due_at: Date | string;
  requested_by: 'buyer' | 'seller' | null;
};

type Scope = { wallNow: Date; clientId?: string; transactionId?: string };

/**
 * The deadlines of one kind someone owes that fall within the next 24 hours of their client's clock, as
 * the reminders find them (withinNotice), and have no `deadline.approaching` for that instant yet.
 */
function approachingRows(rule: DeadlineRule, scope: Scope): SQL {
  const source = deadlineSource(rule, 'ahead_');
  const clientNow = sql`(${scope.wallNow.toISOString()}::timestamptz + c.clock_offset_ms * interval '1 millisecond')`;
  const requestedBy = rule.record === 'transaction' ? sql`${sql.identifier('ahead_t')}.cancellation_request->>'requested_by'` : sql`null::text`;
  const milestoneId = rule.record === 'transaction' ? sql`null::uuid` : sql`${sql.identifier('ahead_m')}.id`;
  const dedupeKey = sql`'deadline.approaching:' || ${rule.name}::text || ':' || ${source.recordId} || ':' || (extract(epoch from ${source.dueAt}) * 1000)::bigint`;
  return sql`select ${rule.name}::text as name, ${source.recordId} as record_id, ${milestoneId} as milestone_id, ${source.transactionId} as transaction_id,
      ${source.clientId} as client_id, ${source.dueAt} as due_at, ${requestedBy} as requested_by
    from ${source.from} join clients c on c.id = ${source.clientId}
    where ${withinNotice(source, clientNow)}
      ${scope.clientId ? sql`and ${source.clientId} = ${scope.clientId}::uuid` : sql``}
      ${scope.transactionId ? sql`and ${source.transactionId} = ${scope.transactionId}::uuid` : sql``}
      and not exists (select 1 from events e where e.dedupe_key = ${dedupeKey})`;
}

function approachingQuery(scope: Scope, limit: number): SQL {
  const branches = DEADLINES.filter((rule) => DEADLINE_OWED_BY[rule.name] !== null).map((rule) => approachingRows(rule, scope));
  return sql`${sql.join(branches, sql` union all `)} limit ${limit}`;
}

/**
 * Writes `deadline.approaching` for each deadline someone owes that falls due within 24 hours (the moment
 * the reminder email goes out), once per deadline instant. Each transaction's are written under its row
 * lock after looking again, so two servers never both write one, and one that lapsed meanwhile (its
 * `deadline.lapsed` already said everything) is left alone. Returns how many were written.
 */
export async function announceApproachingDeadlines(db: DbOrTx, a: { wallNow: Date; clientId?: string; limit?: number }): Promise<number> {
  const found = await queryRows<Approaching>(db, approachingQuery(a, a.limit ?? 200));
  const byTransaction = new Map<string, string>();
  for (const row of found) byTransaction.set(row.transaction_id, row.client_id);
  let written = 0;
  for (const [transactionId, clientId] of byTransaction) {
    written += await db.transaction(async (tx) => {
      await tx.execute(sql`select id from transactions where id = ${transactionId}::uuid for update`);
      const [client] = await tx.select().from(clients).where(eq(clients.id, clientId));
      if (!client) return 0;
      const now = new Date(a.wallNow.getTime() + client.clockOffsetMs);
      const still = await queryRows<Approaching>(tx, approachingQuery({ wallNow: a.wallNow, transactionId }, 50));
      for (const row of still) {
        const deadline = approachingDeadline({ name: row.name, recordId: row.record_id, transactionId, dueAt: new Date(row.due_at), requestedBy: row.requested_by });
        const where = { milestoneId: row.milestone_id ?? undefined, disputeId: deadline.record === 'dispute' ? row.record_id : undefined };
        await recordDeadlineEvent(tx, client.id, 'deadline.approaching', deadline, where, now);
      }
      return still.length;
    });
  }
  return written;
}
