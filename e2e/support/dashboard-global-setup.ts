/**
 * One production server for the browser suite, with the demo seeded. The demo client's secret key (which
 * the key-leak spec hunts for in every page and bundle) lives only in the server's database, so it is
 * read there: on PGlite the server is started once to seed, stopped, the key read from the data
 * directory, and started again on the same directory (which also proves the seeds survive a restart);
 * on PostgreSQL it is read while the server runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { newEncryptionKey, openSealed, PURPOSES } from './sealed-secrets';
import { startTestServer, type TestServer } from './test-server';

const ARTIFACTS = path.resolve(__dirname, '../.artifacts');

async function keyFromPostgres(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ value: { secret_key: string } }>("select value from app_settings where key = 'dashboard_client'");
    return rows[0]?.value.secret_key ?? '';
  } finally {
    await client.end();
  }
}

async function keyFromPglite(dataDir: string): Promise<string> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(path.join(dataDir, 'pgdata'));
  try {
    const { rows } = await db.query<{ value: { secret_key: string } }>("select value from app_settings where key = 'dashboard_client'");
    return rows[0]?.value.secret_key ?? '';
  } finally {
    await db.close();
  }
}

export default async function globalSetup() {
  fs.mkdirSync(path.join(ARTIFACTS, 'screenshots'), { recursive: true });
  let server: TestServer;
  let secretKey: string;
  let ownDataDir: string | undefined;
  // The server keeps the demo key encrypted at rest: with a key of ours, the setup can open it.
  const encryptionKey = newEncryptionKey();
  const env = { ESCROW_ENCRYPTION_KEY: encryptionKey };
  if (process.env.TEST_DATABASE_URL) {
    server = await startTestServer({ seedDemo: true, env });
    secretKey = openSealed(await keyFromPostgres(server.databaseUrl as string), encryptionKey, PURPOSES.clientSecretKey);
  } else {
    ownDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-dashboard-'));
    const first = await startTestServer({ seedDemo: true, dataDir: ownDataDir, env });
    await first.stop();
    secretKey = openSealed(await keyFromPglite(ownDataDir), encryptionKey, PURPOSES.clientSecretKey);
    server = await startTestServer({ seedDemo: true, dataDir: ownDataDir, env });
  }
  if (!/^sk_test_/.test(secretKey)) throw new Error('The demo client secret key was not found in the database');
  process.env.DASHBOARD_BASE_URL = server.baseUrl;
  process.env.DASHBOARD_OPERATOR_KEY = server.operatorKey;
  process.env.DASHBOARD_DEMO_SECRET_KEY = secretKey;
  return async () => {
    await server.stop();
    fs.writeFileSync(path.join(ARTIFACTS, 'dashboard-server.log'), server.output());
    if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
  };
}
