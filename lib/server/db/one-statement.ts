import 'server-only';
import { is, SQL, sql, type ColumnsSelection } from 'drizzle-orm';
import type { TypedQueryBuilder } from 'drizzle-orm/query-builders/query-builder';
import type { DbOrTx } from './client';

/**
 * A write to run as part of one statement: a drizzle insert or update, or the SQL of one (a fixed write
 * on a hot path, where drizzle's building of a statement column by column costs more than its text).
 */
export type Write = TypedQueryBuilder<ColumnsSelection | undefined, unknown> | SQL;

/**
 * Runs drizzle writes as one statement, each a data-modifying CTE (`with w0 as (insert …), w1 as
 * (update …) select 1`): one round trip for the rows of a whole step, and atomic by itself outside a
 * transaction. Prepared, like any hot statement: drizzle's postgres.js driver prepares only what is
 * asked to be.
 *
 * One statement is one snapshot: a write does not see the others, so the caller computes final values
 * first and writes a row at most once. Foreign keys are checked at the end of the statement, so a row
 * may refer to a row inserted beside it.
 */
export async function runAsOneStatement(db: DbOrTx, name: string, writes: Write[]): Promise<void> {
  await oneStatement(db, name, writes).execute();
}

/** A statement rendered to its text, run by `execute()`. */
export type BuiltStatement = { execute: () => Promise<unknown> };

/**
 * runAsOneStatement's statement, rendered to its text now and run by `execute()`: for a caller that builds
 * a large write before it takes the locks the write needs, and so holds them only while the write runs.
 */
export function oneStatement(db: DbOrTx, name: string, writes: Write[]): BuiltStatement {
  if (writes.length === 0) return { execute: async () => undefined };
  // Whether a write returns rows does not matter here: nothing reads them.
  const ctes = writes.map((write, i) => (is(write, SQL) ? db.$with(`w${i}`, {}).as(write) : db.$with(`w${i}`).as(write as TypedQueryBuilder<undefined>)));
  return db
    .with(...ctes)
    .select({ done: sql<number>`1` })
    .from(sql`(values (1)) as done (one)`)
    .prepare(name);
}
