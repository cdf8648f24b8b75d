import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { DEADLINES, type DeadlineRule } from '@/lib/escrow/deadlines';
import { disputes, milestones } from '../db/schema';

/**
 * The rows, as `(transaction_id, client_id)`, whose deadline of one kind has passed by `at`: the kind's
 * status and due column come from DEADLINES, the definitions the lapse engine reads, so this SQL cannot
 * drift from it. A prefilter only: which lapse acts and what it does is the engine's to say, on the
 * transaction loaded under its row lock. Aliases are prefixed so an enclosing query's `m` or `c` stays its own.
 */
function passedDeadlineRows(rule: DeadlineRule, scope: { at: SQL; join?: SQL; where?: SQL }): SQL {
  const [from, record, column] =
    rule.record === 'milestone'
      ? [sql`milestones lapse_m`, sql`lapse_m`, milestones[rule.field].name]
      : [sql`disputes lapse_d join milestones lapse_m on lapse_m.id = lapse_d.milestone_id`, sql`lapse_d`, disputes[rule.field].name];
  return sql`select lapse_m.transaction_id, lapse_m.client_id from ${from} ${scope.join ?? sql``}
    where ${record}.status = ${rule.status} and ${record}.${sql.identifier(column)} <= ${scope.at} ${scope.where ?? sql``}`;
}

/**
 * Transactions with a deadline passed on their client's clock (`wallNow` plus the client's test-clock
 * offset), for the deadline runner. One branch per kind, each served by the partial index of the rows
 * waiting on it: the scan runs every second and must not grow with every milestone ever made.
 */
export function transactionsWithPassedDeadlines(a: { wallNow: Date; clientId?: string; limit: number }): SQL {
  const scope = {
    join: sql`join clients lapse_c on lapse_c.id = lapse_m.client_id`,
    at: sql`(${a.wallNow.toISOString()}::timestamptz + lapse_c.clock_offset_ms * interval '1 millisecond')`,
    where: a.clientId ? sql`and lapse_m.client_id = ${a.clientId}` : undefined,
  };
  return sql`select transaction_id, client_id from (${sql.join(
    DEADLINES.map((rule) => passedDeadlineRows(rule, scope)),
    sql` union `,
  )}) due limit ${a.limit}`;
}

/**
 * True when a deadline of the transaction has passed by `at`. Only for a statement sent before the engine
 * has seen the transaction that must do nothing when a lapse will be applied first (lockAccountsOfMilestone);
 * it agrees with the engine because both read DEADLINES, with the same `<=`.
 */
export function hasPassedDeadline(transactionId: SQL, at: SQL): SQL {
  const scope = { at, where: sql`and lapse_m.transaction_id = ${transactionId}` };
  return sql`exists (${sql.join(
    DEADLINES.map((rule) => passedDeadlineRows(rule, scope)),
    sql` union all `,
  )})`;
}
