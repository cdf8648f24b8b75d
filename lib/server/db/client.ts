import 'server-only';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { dataDir, env } from '../env';
import { lockDataDir } from './data-dir-lock';
import { tightenDataDir } from './owner-only-dir';
import { PipeliningClient } from './pipelining-client';
import { PreparingClient } from './preparing-client';
import { PreparingPGlite } from './preparing-pglite';
import * as schema from './schema';

/**
 * Both drivers give the same drizzle PgDatabase API; everything above this file is one code path.
 * The node-postgres type stands for both.
 */
export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type Database = { db: Db; driver: 'pglite' | 'postgres'; close: () => Promise<void> };

const MIGRATIONS = path.join(/*turbopackIgnore: true*/ process.cwd(), 'lib/server/db/migrations');
/** Serialises migrations when several app processes start on one PostgreSQL at once. */
const MIGRATION_LOCK_ID = 7_204_119;

async function openPostgres(url: string): Promise<Database> {
  const migrator = new pg.Client({ connectionString: url });
  await migrator.connect();
  try {
    await migrator.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(drizzlePg(migrator, { schema }), { migrationsFolder: MIGRATIONS });
  } finally {
    await migrator.end();
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: Math.ceil(env().ESCROW_DB_POOL_SIZE / env().ESCROW_WORKER_COUNT),
    // Idle connections stay open. pg's default closed them after 10 s idle, and at moderate load the
    // pool kept reopening some: a new backend, its catalog caches and every statement prepared again,
    // about 20 ms on the request that waited for it (list users at half of peak: p99 24 → 11-16 ms).
    idleTimeoutMillis: 0,
    Client: env().ESCROW_DB_PREPARED_STATEMENTS === '1' ? PreparingClient : PipeliningClient,
  });
  return { db: drizzlePg(pool, { schema }), driver: 'postgres', close: () => pool.end() };
}

async function openPglite(dir: string): Promise<Database> {
  const release = lockDataDir(dir);
  const Client = env().ESCROW_DB_PREPARED_STATEMENTS === '1' ? PreparingPGlite : PGlite;
  const client = new Client(path.join(dir, 'pgdata'));
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
