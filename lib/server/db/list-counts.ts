import 'server-only';
import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import { unionAll, type PgTable } from 'drizzle-orm/pg-core';
import type { PolledRunner } from '../background-poller';
import type { Db, DbOrTx } from './client';
import { queryRows } from './rows';
import { listCountChanges, listCounts } from './schema';

/** The lists whose totals the database keeps (migration 0021's triggers), and what scopes each. */
export type CountedList = 'transactions' | 'users' | 'events' | 'wallet_entries' | 'webhook_deliveries' | 'emails' | 'payouts';

/** A kept total: whose list, and the equality filters it is kept for (absent ones not filtered on). */
export type KeptTotal = { list: CountedList; scope: string; filters?: Record<string, string | undefined> };

/** `name=value` pairs of the filters given, joined by `&` in name order: as the migration's facet functions spell them. */
export function facetOf(filters: Record<string, string | undefined> = {}): string {
  return Object.entries(filters)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/** The kept total: the folded count plus the changes not folded yet, one index probe each. */
export async function keptTotal(db: DbOrTx, kept: KeptTotal): Promise<number> {
  const facet = facetOf(kept.filters);
  const folded = db
    .select({ n: listCounts.n })
    .from(listCounts)
    .where(and(eq(listCounts.list, kept.list), eq(listCounts.scope, kept.scope), eq(listCounts.facet, facet)));
  const pending = db
    .select({ n: listCountChanges.n })
    .from(listCountChanges)
    .where(and(eq(listCountChanges.list, kept.list), eq(listCountChanges.scope, kept.scope), eq(listCountChanges.facet, facet)));
  const parts = db.$with('parts').as(unionAll(folded, pending));
  const [row] = await db
    .with(parts)
    .select({ n: sql<number>`coalesce(sum(${parts.n}), 0)::float8`.mapWith(Number) })
    .from(parts)
    .prepare('kept_total')
    .execute();
  return row?.n ?? 0;
}

/**
 * A list's exact total: kept by the database when the request filters only on what a total is kept for
 * (`kept`), else counted (a search or a date range: the page itself reads those rows too).
 */
export async function exactTotal(db: DbOrTx, kept: KeptTotal | undefined, table: PgTable, where: SQL | undefined): Promise<number> {
  if (kept) return keptTotal(db, kept);
  const [row] = await db.select({ n: count() }).from(table).where(where);
  return row?.n ?? 0;
}

/** Changes folded per round: one round's work stays short, on PGlite too (requests wait for it there). */
const FOLD_BATCH = 5000;

/**
 * Folds the oldest pending changes into the totals, in one statement. Safe beside another server's fold:
 * a change is deleted (so added) once, and the totals' rows are locked in one order. A total the fold
 * brings to zero is removed (a status every transaction has left, a party's facet of it): the totals
 * would otherwise keep a row for every facet ever counted. Its absence reads as zero, and a delete that
 * finds it changed meanwhile leaves it.
 */
export async function foldListCounts(db: Db): Promise<number> {
  const rows = await queryRows<{ changes: number; list: string | null; scope: string | null; facet: string | null }>(
    db,
    sql`
    with moved as (
      delete from ${listCountChanges}
      where ${listCountChanges.id} in (select id from ${listCountChanges} order by id limit ${FOLD_BATCH})
      returning list, scope, facet, n
    ), net as (
      select list, scope, facet, sum(n)::bigint as n, count(*) as changes from moved group by list, scope, facet
    ), upserted as (
      insert into ${listCounts} (list, scope, facet, n)
      select list, scope, facet, n from net order by list, scope, facet
      on conflict (list, scope, facet) do update set n = ${listCounts}.n + excluded.n
      returning list, scope, facet, n
    )
    select (select coalesce(sum(changes), 0)::int from net) as changes, z.list, z.scope, z.facet
    from (select 1) one left join upserted z on z.n = 0`,
  );
  const zeros = rows.filter((row) => row.list !== null).map((row) => ({ list: row.list!, scope: row.scope!, facet: row.facet! }));
  if (zeros.length > 0) {
    await db.execute(sql`delete from ${listCounts} c using json_to_recordset(${JSON.stringify(zeros)}::json) as z(list text, scope uuid, facet text)
      where c.list = z.list and c.scope = z.scope and c.facet = z.facet and c.n = 0`);
  }
  return Number(rows[0]?.changes ?? 0);
}

export const listCountFolding: PolledRunner = {
  name: 'list count folding',
  intervalMs: () => 1000,
  runOnce: async ({ db }) => {
    // A backlog (a storm of writes) is folded a batch at a time, all of it by the end of the round.
    while ((await foldListCounts(db)) === FOLD_BATCH);
  },
};
