import 'server-only';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from './client';

/**
 * Writes collected during an operation and sent as one statement: each one a data-modifying CTE
 * (`with w0 as (insert …), w1 as (update …) select 1`). On this kind of machine a round trip costs more
 * than the work of a small insert, and an operation wrote up to ten rows one statement at a time.
 *
 * One statement means one snapshot: a write cannot see another write of the same batch, and a row must
 * not be updated twice in one batch (PostgreSQL would keep only one of the updates). Callers compute
 * the final values first (a transfer's postings are summed per account before they are staged). Foreign
 * keys are checked at the end of the statement, so a row may refer to a row inserted beside it, and any
 * failed check fails the whole batch.
 */
export class WriteBatch {
  private writes: { name: string; query: SQL }[] = [];

  /** Stages a write; `name` lets a later write of the batch read this one's RETURNING rows. */
  add(query: SQLWrapper, name = `w${this.writes.length}`): string {
    this.writes.push({ name, query: query.getSQL() });
    return name;
  }

  get size(): number {
    return this.writes.length;
  }

  async flush(db: DbOrTx): Promise<void> {
    const writes = this.writes;
    this.writes = [];
    if (writes.length === 0) return;
    if (writes.length === 1) {
      await db.execute(writes[0]!.query);
      return;
    }
    const ctes = sql.join(
      writes.map((w) => sql`${sql.identifier(w.name)} as (${w.query})`),
      sql`, `,
    );
    await db.execute(sql`with ${ctes} select 1`);
  }
}
