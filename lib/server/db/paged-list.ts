import 'server-only';
import { asc, count, desc, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client';
import { reusableQueries, UNNAMED } from './reusable-query';

type Sorted = { sort: 'ASC' | 'DESC' };

/**
 * One page of a list, newest or oldest first (by creation, then id), and how many rows match in all: the
 * two statements are built once per shape of the list (its sort and which filters it has), and the values
 * (the filters' own, `limit`, `offset`) go as placeholders.
 */
export function pagedList<T extends PgTable & { createdAt: PgColumn; id: PgColumn }, S extends Sorted>(
  table: T,
  shapeOf: (shape: S) => string,
  where: (shape: S) => SQL | undefined,
) {
  const key = (shape: S) => `${shape.sort}:${shapeOf(shape)}`;
  const page = reusableQueries(key, (db, shape: S) =>
    db
      .select()
      .from(table as PgTable)
      .where(where(shape))
      .orderBy(...(shape.sort === 'ASC' ? [asc(table.createdAt), asc(table.id)] : [desc(table.createdAt), desc(table.id)]))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(UNNAMED),
  );
  const total = reusableQueries(key, (db, shape: S) => db.select({ n: count() }).from(table as PgTable).where(where(shape)).prepare(UNNAMED));
  return async (db: DbOrTx, shape: S, values: Record<string, unknown> & { limit: number; offset: number }) => {
    const [rows, [counted]] = await Promise.all([page(db, shape).execute(values), total(db, shape).execute(values)]);
    return { rows: rows as T['$inferSelect'][], total: counted?.n ?? 0 };
  };
}
