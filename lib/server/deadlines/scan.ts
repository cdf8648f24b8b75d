import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { DEADLINES, type DeadlineRule } from '@/lib/escrow/deadlines';
import { deadlineSource } from './source';

/** Names an enclosing query may give: the transaction id and client id of a row found, by the row's alias. */
type Scope = { at: SQL; join?: (clientId: SQL) => SQL; where?: (transactionId: SQL, clientId: SQL) => SQL };

/**
 * The rows, as `(transaction_id, client_id)`, whose deadline of one kind has passed by `at` (where it
 * lives: source.ts). A prefilter only: which lapse acts and what it does is the engine's to say, on the
 * transaction loaded under its row lock.
 */
function passedDeadlineRows(rule: DeadlineRule, scope: Scope): SQL {
  const source = deadlineSource(rule, 'lapse_');
  return sql`select ${source.transactionId} as transaction_id, ${source.clientId} as client_id from ${source.from} ${scope.join?.(source.clientId) ?? sql``}
    where ${source.running} and ${source.dueAt} <= ${scope.at} ${scope.where?.(source.transactionId, source.clientId) ?? sql``}`;
}

/**
 * Transactions with a deadline passed on their client's clock (`wallNow` plus the client's test-clock
 * offset), for the deadline runner. One branch per kind, each served by the partial index of the rows
 * waiting on it: the scan runs every second and must not grow with every milestone ever made. `union all`,
 * so that the limit stops each branch early: a `union` would gather and dedupe every due row first, a
 * cost that grows with a storm of lapses. A transaction may come more than once.
 */
export function transactionsWithPassedDeadlines(a: { wallNow: Date; clientId?: string; limit: number }): SQL {
  const scope: Scope = {
    join: (clientId) => sql`join clients lapse_c on lapse_c.id = ${clientId}`,
    at: sql`(${a.wallNow.toISOString()}::timestamptz + lapse_c.clock_offset_ms * interval '1 millisecond')`,
    where: a.clientId ? (_transactionId, clientId) => sql`and ${clientId} = ${a.clientId}` : undefined,
  };
  return sql`select transaction_id, client_id from (${sql.join(
    DEADLINES.map((rule) => passedDeadlineRows(rule, scope)),
    sql` union all `,
  )}) due limit ${a.limit}`;
}

/**
 * True when a deadline of the transaction has passed by `at`. Only for a statement sent before the engine
 * has seen the transaction that must do nothing when a lapse will be applied first (lockAccountsOfMilestone);
 * it agrees with the engine because both read DEADLINES, with the same `<=`.
 */
export function hasPassedDeadline(transactionId: SQL, at: SQL): SQL {
  const scope: Scope = { at, where: (rowTransactionId) => sql`and ${rowTransactionId} = ${transactionId}` };
  return sql`exists (${sql.join(
    DEADLINES.map((rule) => passedDeadlineRows(rule, scope)),
    sql` union all `,
  )})`;
}
