import 'server-only';
import { sql } from 'drizzle-orm';
import { startPoller } from '../background-poller';
import { env } from '../env';
import type { Database, Db } from './client';

/**
 * VACUUM (ANALYZE) for this app's tables where nothing else runs it: PGlite has no autovacuum at all,
 * and a PostgreSQL server may run with it turned off (this machine's does).
 *
 * Without it the planner has no statistics (it guessed 28 of a client's 7,714 transactions and sorted
 * them all for each page of the list) and no visibility map (counting them read every heap row: 8.5 ms,
 * 1.4 ms after a VACUUM). A server whose autovacuum is on is left to it.
 */

/** A table is due once it has grown by a fifth since it was last vacuumed or analyzed, and by 8 pages (64 kB) at least. */
const GROWTH_FACTOR = 1.2;
const MIN_GROWTH_PAGES = 8;

async function autovacuumRuns(db: Db, driver: Database['driver']): Promise<boolean> {
  if (driver === 'pglite') return false;
  const result = await db.execute(sql`select current_setting('autovacuum') = 'on' and current_setting('track_counts') = 'on' as runs`);
  return (result.rows[0] as { runs: boolean }).runs;
}

/**
 * The tables due, by their size on disk against the size PostgreSQL recorded at their last VACUUM or
 * ANALYZE (pg_class.relpages): the statistics counters that autovacuum reads are not kept up by PGlite.
 */
async function tablesDue(db: Db): Promise<string[]> {
  const result = await db.execute(sql`
    select c.relname as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r'
      and pg_relation_size(c.oid) / current_setting('block_size')::int > greatest(c.relpages, 0) * ${GROWTH_FACTOR}::float8 + ${MIN_GROWTH_PAGES}::int
    order by c.relname`);
  return (result.rows as Array<{ name: string }>).map((r) => r.name);
}

/**
 * Vacuums and analyzes each table that is due, one at a time (on PGlite, requests wait only for the one
 * table being vacuumed, not for all of them); returns how long each took.
 */
export async function maintainTables(db: Db): Promise<Record<string, number>> {
  const took: Record<string, number> = {};
  for (const name of await tablesDue(db)) {
    const started = performance.now();
    // SKIP_LOCKED: a table another server is vacuuming (or one being migrated) is left for the next round.
    await db.execute(sql`vacuum (analyze, skip_locked) ${sql.identifier(name)}`);
    took[name] = Math.round(performance.now() - started);
  }
  return took;
}

export async function startTableMaintenance(db: Db, driver: Database['driver']): Promise<void> {
  if (await autovacuumRuns(db, driver)) return;
  startPoller('table maintenance', env().ESCROW_MAINTENANCE_POLL_MS, async () => {
    const ms = await maintainTables(db);
    if (Object.keys(ms).length) console.log(JSON.stringify({ level: 'info', msg: 'tables vacuumed', ms }));
  });
}
