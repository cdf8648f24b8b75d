/**
 * One production server for the browser suite, with the demo seeded. The demo client's secret key (which
 * the key-leak and every-page specs hunt for in every bundle and page) lives only in the server's database, so it is
 * read there: on PGlite the server is started once to seed, stopped, the key read from the data
 * directory, and started again on the same directory (which also proves the seeds survive a restart);
 * on PostgreSQL it is read while the server runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { freshDataDir } from './data-template';
import { demoKeyFromPglite, demoKeyFromPostgres } from './demo-server';
import { newEncryptionKey } from './sealed-secrets';
import { startTestServer, type TestServer } from './test-server';

const ARTIFACTS = path.resolve(__dirname, '../.artifacts');
/** The server's output as it is written: specs count its log lines (dashboard-api-calls.spec.ts). */
const SERVER_LOG = path.join(ARTIFACTS, 'dashboard-server.log');

export default async function globalSetup() {
  fs.mkdirSync(path.join(ARTIFACTS, 'screenshots'), { recursive: true });
  fs.rmSync(SERVER_LOG, { force: true });
  let server: TestServer;
  let secretKey: string;
  let ownDataDir: string | undefined;
  // The server keeps the demo key encrypted at rest: with a key of ours, the setup can open it.
  const encryptionKey = newEncryptionKey();
  const env = { ESCROW_ENCRYPTION_KEY: encryptionKey };
  if (process.env.TEST_DATABASE_URL) {
    server = await startTestServer({ seedDemo: true, env, logFile: SERVER_LOG });
    secretKey = await demoKeyFromPostgres(server.databaseUrl as string, encryptionKey);
  } else {
    ownDataDir = freshDataDir('escrow-dashboard-');
    const first = await startTestServer({ seedDemo: true, dataDir: ownDataDir, env });
    await first.stop();
    secretKey = await demoKeyFromPglite(ownDataDir, encryptionKey);
    server = await startTestServer({ seedDemo: true, dataDir: ownDataDir, env, logFile: SERVER_LOG });
  }
  if (!/^sk_test_/.test(secretKey)) throw new Error('The demo client secret key was not found in the database');
  process.env.DASHBOARD_BASE_URL = server.baseUrl;
  process.env.DASHBOARD_OPERATOR_KEY = server.operatorKey;
  process.env.DASHBOARD_DEMO_SECRET_KEY = secretKey;
  process.env.DASHBOARD_SERVER_LOG = SERVER_LOG;
  return async () => {
    await server.stop();
    if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
  };
}
