import 'server-only';
import { sql } from 'drizzle-orm';
import { startPoller } from '../background-poller';
import { env } from '../env';
import { postgresClient, type Database, type Db } from './client';
import { queryRows } from './rows';

/**
 * VACUUM (ANALYZE) for this app's tables where nothing else runs it: PGlite has no autovacuum at all,
 * and a PostgreSQL server may run with it turned off (this machine's does).
 *
 * Without it the planner has no statistics (it guessed a handful of a client's thousands of transactions
 * and sorted them all for each page of the list) and no visibility map (counting them read every heap
 * row). A server whose autovacuum is on is left to it.
 */

/** A table is due once it has grown by a fifth since it was last vacuumed or analyzed, and by 8 pages (64 kB) at least. */
const GROWTH_FACTOR = 1.2;
const MIN_GROWTH_PAGES = 8;

async function autovacuumRuns(db: Db, driver: Database['driver']): Promise<boolean> {
  if (driver === 'pglite') return false;
  const [row] = await queryRows<{ runs: boolean }>(db, sql`select current_setting('autovacuum') = 'on' and current_setting('track_counts') = 'on' as runs`);
  return row!.runs;
}

/**
 * The tables due, by their size on disk against the size PostgreSQL recorded at their last VACUUM or
 * ANALYZE (pg_class.relpages): the statistics counters that autovacuum reads are not kept up by PGlite.
 */
async function tablesDue(db: Db): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(db, sql`
    select c.relname as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r'
      and pg_relation_size(c.oid) / current_setting('block_size')::int > greatest(c.relpages, 0) * ${GROWTH_FACTOR}::float8 + ${MIN_GROWTH_PAGES}::int
    order by c.relname`);
  return rows.map((r) => r.name);
}

/**
 * On PostgreSQL, autovacuum's own pace (its defaults: 200 units of work, then a 2 ms pause), as the
 * autovacuum this stands in for would run: a manual VACUUM runs unpaced, and a round after a burst of
 * writes kept a backend busy long enough to take a core from the requests beside it. On a connection of
 * the round's own, so that a slow round holds none of the requests' pool.
 */
const AUTOVACUUM_PACE = { vacuum_cost_delay: '2ms', vacuum_cost_limit: '200' };

async function vacuumEach(names: string[], vacuum: (statement: string) => Promise<unknown>): Promise<Record<string, number>> {
  const took: Record<string, number> = {};
  for (const name of names) {
    const started = performance.now();
    // SKIP_LOCKED: a table another server is vacuuming (or one being migrated) is left for the next round.
    await vacuum(`vacuum (analyze, skip_locked) "${name.replaceAll('"', '""')}"`);
    took[name] = Math.round(performance.now() - started);
  }
  return took;
}

/**
 * Vacuums and analyzes each table that is due, one at a time (on PGlite, requests wait only for the one
 * table being vacuumed, not for all of them); returns how long each took.
 */
export async function maintainTables(db: Db, driver: Database['driver']): Promise<Record<string, number>> {
  const due = await tablesDue(db);
  if (due.length === 0) return {};
  // PGlite runs in this process: a paced VACUUM would hold every request for its pauses too.
  if (driver === 'pglite') return vacuumEach(due, (statement) => db.execute(sql.raw(statement)));
  const client = postgresClient(env().DATABASE_URL!, { max: 1, applicationName: 'escrow-desk maintenance', connection: AUTOVACUUM_PACE });
  try {
    // Without parameters: a simple query, as psql sends it, never prepared.
    return await vacuumEach(due, (statement) => client.unsafe(statement));
  } finally {
    await client.end();
  }
}

export async function startTableMaintenance(db: Db, driver: Database['driver']): Promise<void> {
  if (await autovacuumRuns(db, driver)) return;
  startPoller('table maintenance', env().ESCROW_MAINTENANCE_POLL_MS, async () => {
    const ms = await maintainTables(db, driver);
    if (Object.keys(ms).length) console.log(JSON.stringify({ level: 'info', msg: 'tables vacuumed', ms }));
  });
}
