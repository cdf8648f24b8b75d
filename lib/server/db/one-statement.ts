import 'server-only';
import { sql, type ColumnsSelection } from 'drizzle-orm';
import type { TypedQueryBuilder } from 'drizzle-orm/query-builders/query-builder';
import type { DbOrTx } from './client';

/** A drizzle insert or update (with or without RETURNING) to run as part of one statement. */
export type Write = TypedQueryBuilder<ColumnsSelection | undefined, unknown>;

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
  if (writes.length === 0) return;
  // Whether a write returns rows does not matter here: nothing reads them.
  const ctes = writes.map((write, i) => db.$with(`w${i}`).as(write as TypedQueryBuilder<undefined>));
  await db
    .with(...ctes)
    .select({ done: sql<number>`1` })
    .from(sql`(values (1)) as done (one)`)
    .prepare(name)
    .execute();
}
