import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { DEADLINE_NOTICE_MS, DEADLINE_OWED_BY, DEADLINES, type DeadlineRule } from '@/lib/escrow/deadlines';
import type { DbOrTx } from '../db/client';
import { deadlineSource, withinNotice } from '../deadlines/source';
import { emailOutbox } from '../db/schema';
import { queryRows } from '../db/rows';
import { uuidv7 } from '../ids';
import { newEmailStatus } from './outbox';
import type { StoredFacts } from './render';
import type { RemindedDeadline } from './templates';

/** How long before a deadline lapses its waiting party is reminded (docs/decisions.md §15): when deadline.approaching goes out too. */
export const REMINDER_AHEAD_MS = DEADLINE_NOTICE_MS;

type Candidate = {
  deadline: RemindedDeadline;
  dedupe_key: string;
  client_id: string;
  transaction_id: string;
  dispute_id: string | null;
  title: string;
  due_at: Date | string;
  email: string;
  name: string;
  has_account: boolean;
  client_now: Date | string;
};

/**
 * The customers one kind of deadline waits on whose instant falls within the next 24 hours of their
 * client's clock (the test-clock offset included, as the deadline runner's scan), and who have no
 * reminder for that instant yet. Where each deadline lives: deadlines/source.ts, as for the runner's scan.
 */
function remindersDue(rule: DeadlineRule, owedBy: NonNullable<(typeof DEADLINE_OWED_BY)[keyof typeof DEADLINE_OWED_BY]>, wallNow: Date): SQL {
  const source = deadlineSource(rule, 'due_');
  const parties = owedBy === 'buyer' ? sql`values ('buyer')` : owedBy === 'seller' ? sql`values ('seller')` : sql`values ('buyer'), ('seller')`;
  const answerer = owedBy === 'answerer' ? sql`and w.party is distinct from t.cancellation_request->>'requested_by'` : sql``;
  const clientNow = sql`(${wallNow.toISOString()}::timestamptz + c.clock_offset_ms * interval '1 millisecond')`;
  return sql`select * from (
      select ${rule.name}::text as deadline, ${rule.name}::text || ':' || ${source.recordId} || ':' || (extract(epoch from ${source.dueAt}) * 1000)::bigint || ':' || u.id as dedupe_key,
        t.client_id, t.id as transaction_id, ${source.disputeId} as dispute_id, ${source.title} as title, ${source.dueAt} as due_at,
        u.email, trim(u.first_name || ' ' || u.last_name) as name, a.id is not null as has_account, ${clientNow} as client_now
      from ${source.from}
      -- The record's own client: its clock bounds the due range, which the index then reads per client.
      join clients c on c.id = ${source.clientId}
      join transactions t on t.id = ${source.transactionId}
      cross join lateral (${parties}) w (party)
      join parties p on p.id = case w.party when 'buyer' then t.buyer_party_id else t.seller_party_id end
      join users u on u.id = p.user_id
      left join dashboard_accounts a on a.client_id = u.client_id and a.escrow_user_id = u.id and a.role = 'customer'
      where ${withinNotice(source, clientNow)} ${answerer}
    ) due
    where not exists (select 1 from email_outbox o where o.dedupe_key = 'reminder:' || due.dedupe_key)`;
}

/** One statement a pass, one branch per deadline someone owes, each served by the partial index of its rows. */
export function dueRemindersQuery(wallNow: Date, limit: number): SQL {
  const branches = DEADLINES.flatMap((rule) => {
    const owedBy = DEADLINE_OWED_BY[rule.name];
    return owedBy ? [remindersDue(rule, owedBy, wallNow)] : [];
  });
  return sql`${sql.join(branches, sql` union all `)} limit ${limit}`;
}

/**
 * Writes a reminder for each deadline about to lapse to the customers who owe its move, once per
 * deadline instant and person: the dedupe key holds both, so a moved deadline is reminded again and a
 * second pass (or a second server) writes nothing.
 */
export async function writeDueReminders(db: DbOrTx, wallNow: Date, limit = 200): Promise<number> {
  return db.transaction(async (tx) => {
    // The pass reads a few index ranges, yet the planner, counting every milestone under inspection as a
    // candidate, would gather it from parallel workers whose start costs many times the reads. And weighing
    // every order of each branch's seven joins cost the planner many times those reads too, at every pass:
    // each branch is written in the order that serves it (the due index, then keys), and the planner keeps
    // that order, as PGlite's session always does (db/client.ts), while it still picks each join's method.
    await tx.execute(sql`select set_config('max_parallel_workers_per_gather', '0', true), set_config('join_collapse_limit', '1', true)`);
    return writeReminders(tx, await queryRows<Candidate>(tx, dueRemindersQuery(wallNow, limit)));
  });
}

async function writeReminders(db: DbOrTx, due: Candidate[]): Promise<number> {
  if (due.length === 0) return 0;
  const rows = due.map((r) => {
    const path = r.dispute_id ? `/disputes/${r.dispute_id}` : `/transactions/${r.transaction_id}`;
    // Rendered when sent (render.ts), like every email a write records.
    const facts: StoredFacts<'deadline_reminder'> = {
      name: r.name,
      deadline: r.deadline,
      subjectTitle: r.title,
      dueAt: new Date(r.due_at).toISOString(),
      path: r.has_account ? path : null,
    };
    const at = new Date(r.client_now);
    return {
      id: uuidv7(),
      clientId: r.client_id,
      kind: 'deadline_reminder' as const,
      recipientEmail: r.email,
      recipientName: r.name,
      facts,
      dedupeKey: `reminder:${r.dedupe_key}`,
      status: newEmailStatus(),
      nextAttemptAt: sql`now()`,
      createdAt: at,
      updatedAt: at,
    };
  });
  const inserted = await db.insert(emailOutbox).values(rows).onConflictDoNothing({ target: emailOutbox.dedupeKey }).returning({ id: emailOutbox.id });
  return inserted.length;
}
