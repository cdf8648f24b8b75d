import 'server-only';
import net from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { dataDir, env } from '../env';
import { lockDataDir } from './data-dir-lock';
import { EMBEDDED_START_PARAMS, initEmbeddedDatabase } from './embedded-settings';
import { tightenDataDir } from './owner-only-dir';
import * as schema from './schema';

/** Both drivers give the same drizzle PgDatabase API; everything above this file is one code path. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = PgTransaction<PgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  driver: 'pglite' | 'postgres';
  close: () => Promise<void>;
  /** The embedded database only: a consistent copy of it, taken between statements (db/embedded-backup.ts). */
  backup?: () => Promise<Blob>;
};

const MIGRATIONS = path.join(/*turbopackIgnore: true*/ process.cwd(), 'lib/server/db/migrations');
/** Serialises migrations when several app processes start on one PostgreSQL at once. */
const MIGRATION_LOCK_ID = 7_204_119;

type ClientOptions = postgres.Options<Record<string, postgres.PostgresType>> & {
  applicationName?: string;
  /** Called when one of the client's connections closes (the client reconnects by itself). */
  onSocketClose?: (error: unknown) => void;
};

/** postgres.js's `socket` option (its README, "Custom socket"), which its typings leave out. */
type SocketOption = { socket: (options: { host: string[]; port: number[]; path?: string }) => net.Socket };

/**
 * A postgres.js client of this app. postgres.js carries patches/postgres+3.4.9.patch until upstream fixes are
 * released, each seen when PostgreSQL went away under load: a transaction's ROLLBACK written after its connection
 * closed threw out of the event loop (porsager/postgres#1208); a lost connection's unsent bytes, half-read answer or
 * error carried over to the connection made next, answering or failing another query (#1223), as did the later
 * statements of a transaction whose connection was lost; the array-type lookup of a new connection failed as an
 * unhandled rejection (#1192). NOTICEs (a migration's "already exists, skipping") are not news; a
 * connection names the app in pg_stat_activity. Its sockets are the ones postgres.js would open, but
 * with Nagle's algorithm off, as node-postgres has it: postgres.js sends a statement queued behind a
 * larger one (a transaction's COMMIT behind its last write) in a second small packet, and Nagle held that
 * packet until the server had answered the first, a round trip saved by sending the two together spent again.
 */
export function postgresClient(url: string, options: ClientOptions = {}) {
  const { applicationName = 'escrow-desk', onSocketClose, ...rest } = options;
  let attempt = 0;
  const socketOption: SocketOption = {
    socket: ({ host, port, path }) => {
      const at = attempt++ % Math.max(host.length, 1);
      const socket = path ? net.connect({ path, noDelay: true }) : net.connect({ host: host[at], port: port[at] ?? port[0] ?? 5432, noDelay: true });
      if (onSocketClose) {
        let failure: unknown;
        socket.on('error', (error) => (failure = error));
        socket.once('close', () => onSocketClose(failure ?? new Error('the connection ended')));
      }
      return socket;
    },
  };
  return postgres(url, { onnotice: () => undefined, ...rest, ...(socketOption as object), connection: { application_name: applicationName, ...rest.connection } });
}

/** Connections the background worker keeps: the deadline runner's two lanes, and one for its scan and the other pollers. */
const BACKGROUND_CONNECTIONS = 3;

/**
 * This process's share of ESCROW_DB_POOL_SIZE: the background worker's few, the rest split among the
 * workers that answer requests (one process alone has them all).
 */
function poolShare(): number {
  const { ESCROW_DB_POOL_SIZE: size, ESCROW_WORKER_COUNT: workers, ESCROW_WORKER_ROLE: role } = env();
  if (workers === 1) return size;
  if (role === 'background') return BACKGROUND_CONNECTIONS;
  return Math.max(1, Math.ceil((size - BACKGROUND_CONNECTIONS) / workers));
}

async function openPostgres(url: string): Promise<Database> {
  // One connection, so that the advisory lock and the migrations share a session; ending it releases the lock.
  const migrator = postgresClient(url, { max: 1 });
  try {
    await migrator`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migratePostgres(drizzlePostgres(migrator), { migrationsFolder: MIGRATIONS });
  } finally {
    await migrator.end();
  }
  const settings = env();
  const client = postgresClient(url, {
    max: poolShare(),
    // Nothing waits unbounded on a database that is not answering (docs/operations.md, "When the database is down"):
    // a connection is made within the timeout or the request is answered 503, and a lost one is made again at once
    // (postgres.js's default backoff grows to 20 s between attempts).
    connect_timeout: settings.ESCROW_DB_CONNECT_TIMEOUT_MS / 1000,
    backoff: () => 0.1,
    connection: {
      statement_timeout: settings.ESCROW_DB_STATEMENT_TIMEOUT_MS,
      lock_timeout: settings.ESCROW_DB_LOCK_TIMEOUT_MS,
    },
    // Connections stay open, idle or old: a new one is a new backend with cold catalog caches and every
    // statement prepared again, paid by the request that waits for it.
    idle_timeout: 0,
    max_lifetime: null,
    // Off behind a pooler in transaction mode, where the next statement may reach another backend.
    prepare: settings.ESCROW_DB_PREPARED_STATEMENTS === '1',
  });
  return { db: drizzlePostgres(client, { schema }) as unknown as Db, driver: 'postgres', close: () => client.end() };
}

async function openPglite(dir: string): Promise<Database> {
  const release = lockDataDir(dir);
  const pgdata = path.join(dir, 'pgdata');
  await initEmbeddedDatabase(pgdata);
  const client = new PGlite(pgdata, { startParams: EMBEDDED_START_PARAMS });
  await client.waitReady;
  // PGlite plans every statement anew (drizzle's PGlite driver prepares none): the planner takes the joins
  // in the order written, each statement here from its most selective table outwards, instead of
  // searching every order of seven or ten tables on every request.
  await client.exec('set join_collapse_limit = 1; set from_collapse_limit = 1');
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS });
  // PGlite chmods the files it makes at start past the umask (owner-only-dir.ts says which).
  tightenDataDir(dir);
  return {
    db: db as unknown as Db,
    driver: 'pglite',
    backup: () => client.dumpDataDir('gzip'),
    close: async () => {
      await client.close();
      release();
    },
  };
}

// Route handlers, server actions and instrumentation can be bundled apart; one process keeps one database.
const holder = globalThis as typeof globalThis & { __escrowDatabase?: Promise<Database> };

export function database(): Promise<Database> {
  if (!holder.__escrowDatabase) {
    const url = env().DATABASE_URL;
    holder.__escrowDatabase = url ? openPostgres(url) : openPglite(dataDir());
    holder.__escrowDatabase.catch(() => {
      holder.__escrowDatabase = undefined;
    });
  }
  return holder.__escrowDatabase;
}

/** Closes this process's database (its pool, or the embedded database and its lock), if it was opened. */
export async function closeDatabase(): Promise<void> {
  const opened = holder.__escrowDatabase;
  holder.__escrowDatabase = undefined;
  if (opened) await (await opened.catch(() => undefined))?.close();
}

export async function getDb(): Promise<Db> {
  return (await database()).db;
}
