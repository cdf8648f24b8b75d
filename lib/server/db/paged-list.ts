import 'server-only';
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { pagination } from '@/lib/contracts/common';
import { notFound, validation } from '../app-error';
import type { DbOrTx } from './client';
import { exactTotal, type KeptTotal } from './list-counts';

type Sorted = { sort: 'ASC' | 'DESC' };

/** Page mode or cursor mode, as a list's query asks: `after` with a page other than 1 is a contradiction. */
export type PageRequest = { page: number; limit: number; after?: string };

export function checkPageRequest(q: PageRequest) {
  if (q.after !== undefined && q.page !== 1) throw validation('after', 'cannot be combined with page (other than 1): page by `after` or by `page`, not both');
}

/** A cursor must be a row of the caller's own list: unknown or another's reads as not found (`what`'s message). */
export async function requireCursorRow(db: DbOrTx, table: PgTable & { id: PgColumn }, owned: SQL | undefined, after: string, what: string) {
  const [found] = await db
    .select({ id: table.id })
    .from(table as PgTable)
    .where(and(eq(table.id, after), owned));
  if (!found) throw notFound(what, after);
}

/** A page read one row past its end (limit + 1): the rows to show, and the cursor of what follows (null at the end). */
export function pageAndNext<R>(rows: R[], limit: number, idOf: (row: R) => string) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextAfter: rows.length > limit && last !== undefined ? idOf(last) : null };
}

/**
 * The rows that follow a cursor row in a (created_at, id) order, as a keyset condition on the order index. The
 * cursor's own values are read in the same statement, so its timestamp keeps the database's precision. `between`
 * are tie-breakers the order puts between creation and id: expressions of `table`'s own columns, never null, read
 * off the cursor row just as its timestamp is.
 */
export function followingRow(table: PgTable & { createdAt: PgColumn; id: PgColumn }, sort: 'ASC' | 'DESC', after: string, between: SQL[] = []): SQL {
  const keys = sql.join([sql`${table.createdAt}`, ...between, sql`${table.id}`], sql`, `);
  const cursor = sql`(select ${keys} from ${table} where ${table.id} = ${after})`;
  return sort === 'ASC' ? sql`(${keys}) > ${cursor}` : sql`(${keys}) < ${cursor}`;
}

/**
 * One page of a list, newest or oldest first (by creation, then id), and how many rows match in all: two
 * statements sent together. `owned` says which rows are the caller's (a cursor must be one of them, else 404
 * with `what`'s not-found message); `where` adds the filters of one request. A page reads one row past its end
 * to know whether more follow (`nextAfter`). `kept` names the total the database keeps for a request, when
 * it keeps one for its filters (lib/server/db/list-counts.ts); otherwise the matching rows are counted.
 */
export function pagedList<T extends PgTable & { createdAt: PgColumn; id: PgColumn }, S extends Sorted>(
  table: T,
  name: string,
  what: string,
  owned: (shape: S) => SQL | undefined,
  where: (shape: S) => SQL | undefined,
  kept: (shape: S) => KeptTotal | undefined,
) {
  return async (db: DbOrTx, shape: S, q: PageRequest) => {
    checkPageRequest(q);
    if (q.after !== undefined) await requireCursorRow(db, table, owned(shape), q.after, what);
    const filter = and(owned(shape), where(shape));
    const order = shape.sort === 'ASC' ? [asc(table.createdAt), asc(table.id)] : [desc(table.createdAt), desc(table.id)];
    const [rows, total] = await Promise.all([
      db
        .select()
        .from(table as PgTable)
        .where(q.after === undefined ? filter : and(filter, followingRow(table, shape.sort, q.after)))
        .orderBy(...order)
        .limit(q.limit + 1)
        .offset(q.after === undefined ? (q.page - 1) * q.limit : 0)
        .prepare(`${name}_${q.after === undefined ? 'page' : 'after'}`)
        .execute(),
      exactTotal(db, kept(shape), table, filter),
    ]);
    const { page, nextAfter } = pageAndNext(rows as T['$inferSelect'][], q.limit, (r) => (r as { id: string }).id);
    return { rows: page, total, pagination: pagination(q.page, q.limit, total, nextAfter, q.after !== undefined) };
  };
}
