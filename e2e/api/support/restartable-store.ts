/**
 * A database that outlives its servers, for tests that restart a server with other settings on the same
 * data: a PGlite directory, or a PostgreSQL database of its own when TEST_DATABASE_URL is set. Rows are
 * read directly (on PGlite only while no server holds the directory).
 */
import fs from 'node:fs';
import path from 'node:path';
import type postgres from 'postgres';
import { freshDataDir } from '../../support/data-template';
import { createDatabase, dropDatabase, onDatabase, startTestServer, type TestServer } from '../../support/test-server';

export type RestartableStore = {
  database: 'pglite' | 'postgres';
  /** Where the server keeps its files (the key file among them), on either database. */
  dataDir: string;
  start: (env?: Record<string, string>, seedDemo?: boolean) => Promise<TestServer>;
  query: <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;
  remove: () => Promise<void>;
};

export async function restartableStore(): Promise<RestartableStore> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const dataDir = freshDataDir('escrow-restartable-');
  const databaseUrl = adminUrl ? await createDatabase(adminUrl) : undefined;
  return {
    database: databaseUrl ? 'postgres' : 'pglite',
    dataDir,
    start: (env = {}, seedDemo = false) =>
      databaseUrl
        ? startTestServer({ databaseUrl, seedDemo, env: { ESCROW_DATA_DIR: dataDir, ...env } })
        : startTestServer({ dataDir, seedDemo, env }),
    query: async <T,>(text: string, params: unknown[] = []) => {
      if (databaseUrl) {
        return onDatabase(databaseUrl, async (sql) => [...(await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[]))] as T[]);
      }
      const { PGlite } = await import('@electric-sql/pglite');
      const db = new PGlite(path.join(dataDir, 'pgdata'));
      try {
        return (await db.query<T>(text, params)).rows;
      } finally {
        await db.close();
      }
    },
    remove: async () => {
      if (databaseUrl && adminUrl) await dropDatabase(adminUrl, databaseUrl);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
