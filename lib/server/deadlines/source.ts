import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { DEADLINE_NOTICE_MS, type DeadlineRule } from '@/lib/escrow/deadlines';
import { disputes, milestones, transactions } from '../db/schema';

/** Where one kind of deadline lives in the tables, as SQL fragments an enclosing query puts together. */
export type DeadlineSource = {
  /** The record's table(s), aliased. */
  from: SQL;
  /** The id of the record the deadline is on. */
  recordId: SQL;
  transactionId: SQL;
  clientId: SQL;
  /** The due column: its instant. */
  dueAt: SQL;
  /**
   * The state that keeps the deadline running; where the column alone says so, that it is set. Said even
   * then: the planner estimates the rows from it (its null fraction), where otherwise it would take every
   * row of the table for a candidate and hash the whole reminder outbox against them.
   */
  running: SQL;
  disputeId: SQL;
  /** What the person is reminded of: the milestone's title, or the transaction's. */
  title: SQL;
};

/**
 * The deadline's record, due column and state from DEADLINES (lib/escrow/deadlines.ts), the definitions
 * the lapse engine reads: the runner's scan and the reminders both take them from here, so neither drifts
 * from the engine. `prefix` names the aliases (`<prefix>m`, `<prefix>d`, `<prefix>t`), so an enclosing
 * query's own `m` or `t` stays its own.
 */
export function deadlineSource(rule: DeadlineRule, prefix: string): DeadlineSource {
  const m = sql.identifier(`${prefix}m`);
  const d = sql.identifier(`${prefix}d`);
  const t = sql.identifier(`${prefix}t`);
  switch (rule.record) {
    case 'milestone':
      return {
        from: sql`milestones ${m}`,
        recordId: sql`${m}.id`,
        transactionId: sql`${m}.transaction_id`,
        clientId: sql`${m}.client_id`,
        dueAt: sql`${m}.${sql.identifier(milestones[rule.field].name)}`,
        running: rule.status === null ? sql`${m}.${sql.identifier(milestones[rule.field].name)} is not null` : sql`${m}.status = ${rule.status}`,
        disputeId: sql`null::uuid`,
        title: sql`${m}.title`,
      };
    case 'dispute':
      return {
        from: sql`disputes ${d} join milestones ${m} on ${m}.id = ${d}.milestone_id`,
        recordId: sql`${d}.id`,
        transactionId: sql`${m}.transaction_id`,
        clientId: sql`${m}.client_id`,
        dueAt: sql`${d}.${sql.identifier(disputes[rule.field].name)}`,
        running: sql`${d}.status = ${rule.status}`,
        disputeId: sql`${d}.id`,
        title: sql`${m}.title`,
      };
    case 'transaction':
      return {
        from: sql`transactions ${t}`,
        recordId: sql`${t}.id`,
        transactionId: sql`${t}.id`,
        clientId: sql`${t}.client_id`,
        dueAt: sql`${t}.${sql.identifier(transactions[rule.field].name)}`,
        running: sql`${t}.${sql.identifier(transactions[rule.field].name)} is not null`,
        disputeId: sql`null::uuid`,
        title: sql`${t}.title`,
      };
  }
}

/**
 * A running deadline whose instant falls within the next 24 hours of `clientNow` (its client's clock): what
 * the reminders and `deadline.approaching` both announce.
 */
export function withinNotice(source: DeadlineSource, clientNow: SQL): SQL {
  return sql`${source.running} and ${source.dueAt} > ${clientNow} and ${source.dueAt} <= ${clientNow} + ${DEADLINE_NOTICE_MS} * interval '1 millisecond'`;
}
