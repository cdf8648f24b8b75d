import 'server-only';
import { asc, count, desc, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client';

type Sorted = { sort: 'ASC' | 'DESC' };

/**
 * One page of a list, newest or oldest first (by creation, then id), and how many rows match in all: two
 * statements sent together. `where` gives the filter of one request; the statements are prepared (one per
 * shape of the filter), so the database plans each shape once per connection.
 */
export function pagedList<T extends PgTable & { createdAt: PgColumn; id: PgColumn }, S extends Sorted>(table: T, name: string, where: (shape: S) => SQL | undefined) {
  return async (db: DbOrTx, shape: S, page: { limit: number; offset: number }) => {
    const filter = where(shape);
    const order = shape.sort === 'ASC' ? [asc(table.createdAt), asc(table.id)] : [desc(table.createdAt), desc(table.id)];
    const [rows, [counted]] = await Promise.all([
      db
        .select()
        .from(table as PgTable)
        .where(filter)
        .orderBy(...order)
        .limit(page.limit)
        .offset(page.offset)
        .prepare(`${name}_page`)
        .execute(),
      db
        .select({ n: count() })
        .from(table as PgTable)
        .where(filter)
        .prepare(`${name}_total`)
        .execute(),
    ]);
    return { rows: rows as T['$inferSelect'][], total: counted?.n ?? 0 };
  };
}
