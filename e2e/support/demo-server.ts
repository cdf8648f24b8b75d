/**
 * A production server of a spec's own with the demo seeded, and the demo client's secret key (kept only
 * in the server's database). On PGlite the server is started once to seed, stopped, the key read from
 * the data directory and started again on it; on PostgreSQL (TEST_DATABASE_URL) the key is read while the
 * server runs. `restart` starts it again on the same database; `stop` ends it and removes the database.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { newEncryptionKey, openSealed, PURPOSES } from './sealed-secrets';
import { createDatabase, dropDatabase, onDatabase, startTestServer, type TestServer } from './test-server';
import { freshDataDir } from './data-template';

export type DemoServer = { server: TestServer; demoSecretKey: string; restart: () => Promise<TestServer>; stop: () => Promise<void> };

/** A statement on the server's database, for rows a spec needs that no operation makes (a service-wide account). */
export type Query = (text: string, params: unknown[]) => Promise<unknown>;

/** The demo key as the server keeps it, sealed with `encryptionKey` (the server's ESCROW_ENCRYPTION_KEY), opened. */
export async function demoKeyFromPostgres(url: string, encryptionKey: string): Promise<string> {
  const rows = await onDatabase(url, (sql) => sql<Array<{ secret_key: string }>>`select secret_key from dashboard_client_keys where client_id = (select (value->>'client_id')::uuid from app_settings where key = 'dashboard_client')`);
  return rows[0] ? openSealed(rows[0].secret_key, encryptionKey, PURPOSES.clientSecretKey) : '';
}

/** Runs `run` on the PGlite database in `dataDir` (no server may hold it meanwhile), then closes it. */
async function onPglite<T>(dataDir: string, run: (db: PGlite) => Promise<T>): Promise<T> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(path.join(dataDir, 'pgdata'));
  try {
    return await run(db);
  } finally {
    await db.close();
  }
}

export async function demoKeyFromPglite(dataDir: string, encryptionKey: string): Promise<string> {
  return onPglite(dataDir, async (db) => {
    const { rows } = await db.query<{ secret_key: string }>("select secret_key from dashboard_client_keys where client_id = (select (value->>'client_id')::uuid from app_settings where key = 'dashboard_client')");
    return rows[0] ? openSealed(rows[0].secret_key, encryptionKey, PURPOSES.clientSecretKey) : '';
  });
}

/**
 * `setup` runs on the server's database before a spec uses the server: while it runs on PostgreSQL; on
 * PGlite, which one process holds at a time, between the seeding start and the start the spec gets.
 */
export async function startDemoServer(extraEnv: Record<string, string> = {}, opts: { setup?: (query: Query) => Promise<void> } = {}): Promise<DemoServer> {
  // The server keeps the demo key encrypted at rest: with a key of ours, we can open it.
  const encryptionKey = newEncryptionKey();
  const env = { ESCROW_ENCRYPTION_KEY: encryptionKey, ...extraEnv };
  const adminUrl = process.env.TEST_DATABASE_URL;
  let server: TestServer;
  let demoSecretKey: string;
  let databaseUrl: string | undefined;
  let dataDir: string | undefined;
  if (adminUrl) {
    // A database of our own, so that stopping the server for a restart does not drop it.
    databaseUrl = await createDatabase(adminUrl);
    server = await startTestServer({ seedDemo: true, databaseUrl, env });
    demoSecretKey = await demoKeyFromPostgres(databaseUrl, encryptionKey);
    if (opts.setup) await onDatabase(databaseUrl, (sql) => opts.setup!((text, params) => sql.unsafe(text, params as never[])));
  } else {
    dataDir = freshDataDir('escrow-demo-');
    const first = await startTestServer({ seedDemo: true, dataDir, env });
    await first.stop();
    demoSecretKey = await demoKeyFromPglite(dataDir, encryptionKey);
    if (opts.setup) await onPglite(dataDir, (db) => opts.setup!((text, params) => db.query(text, params)));
    server = await startTestServer({ seedDemo: true, dataDir, env });
  }
  if (!/^sk_test_/.test(demoSecretKey)) throw new Error('The demo client secret key was not found in the database');
  // The operator key stays the same across restarts: the spec's clients were made with it.
  const operatorKey = server.operatorKey;
  return {
    server,
    demoSecretKey,
    restart: async () => {
      await server.stop();
      server = { ...(await startTestServer({ seedDemo: true, databaseUrl, dataDir, env: { ...env, ESCROW_OPERATOR_KEY: operatorKey } })), operatorKey };
      return server;
    },
    stop: async () => {
      await server.stop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      if (adminUrl && databaseUrl) await dropDatabase(adminUrl, databaseUrl);
    },
  };
}
