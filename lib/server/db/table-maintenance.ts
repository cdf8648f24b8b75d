import 'server-only';
import { sql } from 'drizzle-orm';
import type { PolledRunner } from '../background-poller';
import { env } from '../env';
import { postgresClient, type Database, type Db } from './client';
import { queryRows } from './rows';
import { log } from '../logger';

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

type DueTable = { name: string; pages: number };

/**
 * The tables due, by their size on disk against the size PostgreSQL recorded at their last VACUUM or
 * ANALYZE (pg_class.relpages): the statistics counters that autovacuum reads are not kept up by PGlite.
 */
async function tablesDue(db: Db): Promise<DueTable[]> {
  return queryRows<DueTable>(db, sql`
    select name, pages from (
      select c.relname as name, (pg_relation_size(c.oid) / current_setting('block_size')::int)::int as pages, greatest(c.relpages, 0) as recorded
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r'
    ) sized
    where pages > recorded * ${GROWTH_FACTOR}::float8 + ${MIN_GROWTH_PAGES}::int
    order by name`);
}

/**
 * On PostgreSQL, autovacuum's own pace (its defaults: 200 units of work, then a 2 ms pause), as the
 * autovacuum this stands in for would run: a manual VACUUM runs unpaced, and a round after a burst of
 * writes kept a backend busy long enough to take a core from the requests beside it. On a connection of
 * the round's own, so that a slow round holds none of the requests' pool.
 */
const AUTOVACUUM_PACE = { vacuum_cost_delay: '2ms', vacuum_cost_limit: '200' };

/**
 * PGlite runs in this process's thread, so every request waits for a VACUUM there. Two things keep that
 * wait short:
 * - ANALYZE, most of the cost (sorting a sample of up to 30,000 rows per column), runs only when a table
 *   has doubled since this process last analyzed it. VACUUM keeps the row count the planner scales its
 *   estimates by (pg_class.reltuples) and the visibility map the lists count from; the shape of the data,
 *   which ANALYZE samples, changes far more slowly.
 * - After each table the round rests for 19 times as long as that table held the engine, so requests have
 *   it for at least 95% of a round and queue behind one table at most, never behind several back to back.
 */
const PGLITE_ANALYZE_GROWTH = 2;
const PGLITE_REST_FACTOR = 19;
const analyzedAtPages = new Map<string, number>();

const rest = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How long `statement` took, in ms. */
async function timed(statement: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await statement();
  return performance.now() - started;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function maintainPglite(db: Db, due: DueTable[], done: (table: string, ms: number, analyzed: boolean) => void): Promise<void> {
  for (const [i, table] of due.entries()) {
    const last = analyzedAtPages.get(table.name);
    const analyze = last === undefined || table.pages >= last * PGLITE_ANALYZE_GROWTH;
    const took = await timed(() => db.execute(sql.raw(`vacuum (${analyze ? 'analyze, ' : ''}skip_locked) ${quoted(table.name)}`)));
    if (analyze) analyzedAtPages.set(table.name, table.pages);
    done(table.name, Math.round(took), analyze);
    if (i < due.length - 1) await rest(Math.max(took, 1) * PGLITE_REST_FACTOR);
  }
}

/**
 * Vacuums and analyzes each table that is due, one at a time; `done` hears of each as it finishes, with
 * how long it took.
 */
export async function maintainTables(db: Db, driver: Database['driver'], done: (table: string, ms: number, analyzed: boolean) => void): Promise<void> {
  const due = await tablesDue(db);
  if (due.length === 0) return;
  if (driver === 'pglite') return maintainPglite(db, due, done);
  const client = postgresClient(env().DATABASE_URL!, { max: 1, applicationName: 'escrow-desk maintenance', connection: AUTOVACUUM_PACE });
  try {
    for (const table of due) {
      // SKIP_LOCKED: a table another server is vacuuming (or one being migrated) is left for the next round.
      // Without parameters: a simple query, as psql sends it, never prepared.
      const took = await timed(() => client.unsafe(`vacuum (analyze, skip_locked) ${quoted(table.name)}`));
      done(table.name, Math.round(took), true);
    }
  } finally {
    await client.end();
  }
}

/** Off where autovacuum runs. */
export const tableMaintenance: PolledRunner = {
  name: 'table maintenance',
  intervalMs: (settings) => settings.ESCROW_MAINTENANCE_POLL_MS,
  setUp: async ({ db, driver }) => !(await autovacuumRuns(db, driver)),
  runOnce: async ({ db, driver }) => {
    // A line per table as it is done: a round on PGlite rests between tables, and the bench puts each table's
    // time in the phase it fell in.
    await maintainTables(db, driver, (table, ms, analyzed) => log.info({ msg: 'tables vacuumed', ms: { [table]: ms }, analyzed }));
  },
};
