import 'server-only';
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
import { tightenDataDir } from './owner-only-dir';
import * as schema from './schema';

/** Both drivers give the same drizzle PgDatabase API; everything above this file is one code path. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = PgTransaction<PgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
export type DbOrTx = Db | Tx;

export type Database = { db: Db; driver: 'pglite' | 'postgres'; close: () => Promise<void> };

const MIGRATIONS = path.join(/*turbopackIgnore: true*/ process.cwd(), 'lib/server/db/migrations');
/** Serialises migrations when several app processes start on one PostgreSQL at once. */
const MIGRATION_LOCK_ID = 7_204_119;

/**
 * A postgres.js client of this app: NOTICEs (a migration's "already exists, skipping") are not news,
 * and a connection names the app in pg_stat_activity.
 */
export function postgresClient(url: string, options: postgres.Options<Record<string, postgres.PostgresType>> & { applicationName?: string } = {}) {
  const { applicationName = 'escrow-desk', ...rest } = options;
  return postgres(url, { onnotice: () => undefined, ...rest, connection: { application_name: applicationName, ...rest.connection } });
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
  const client = postgresClient(url, {
    max: Math.ceil(env().ESCROW_DB_POOL_SIZE / env().ESCROW_WORKER_COUNT),
    // Connections stay open, idle or old: a new one is a new backend with cold catalog caches and every
    // statement prepared again, paid by the request that waits for it.
    idle_timeout: 0,
    max_lifetime: null,
    // Off behind a pooler in transaction mode, where the next statement may reach another backend.
    prepare: env().ESCROW_DB_PREPARED_STATEMENTS === '1',
  });
  return { db: drizzlePostgres(client, { schema }) as unknown as Db, driver: 'postgres', close: () => client.end() };
}

async function openPglite(dir: string): Promise<Database> {
  const release = lockDataDir(dir);
  const client = new PGlite(path.join(dir, 'pgdata'));
  await client.waitReady;
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS });
  // PGlite chmods the files it makes at start past the umask (owner-only-dir.ts says which).
  tightenDataDir(dir);
  return {
    db: db as unknown as Db,
    driver: 'pglite',
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

export async function getDb(): Promise<Db> {
  return (await database()).db;
}
