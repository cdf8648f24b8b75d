import 'server-only';
import { assertSameEncryptionKey, EncryptionKeyMismatch, sealPlaintextSecrets } from './crypto/secrets-at-rest';
import { database } from './db/client';
import { databaseUnavailability } from './db/database-error';
import { env } from './env';
import { listenForClientChanges } from './client-cache';
import { hasLiveClient, RETIRED_DEMO_MESSAGE } from './dashboard/demo-accounts';
import { seedDashboardAccounts } from './seed/dashboard-accounts';
import { seedDemoOnce } from './seed/demo';
import { startRunners } from './runners';
import { log } from './logger';

/**
 * Runs once per server process (instrumentation): migrations, then the demo data on first start. Of a
 * server's worker processes, the first (started alone, before the others) seeds, and the background
 * worker runs the background runners (scripts/production-server/workers.ts); a server of one process
 * does all of it. The runners are safe to run twice, but one of each per server is enough.
 */
export async function startServer(): Promise<void> {
  const { db, driver } = await openDatabase();
  listenForClientChanges();
  const { ESCROW_WORKER: worker, ESCROW_WORKER_COUNT: workers, ESCROW_WORKER_ROLE: role } = env();
  if (role === 'background') {
    await startRunners({ db, driver });
    log.info({ msg: 'escrow desk background worker ready', worker, database: driver });
    return;
  }
  if ((worker ?? 1) !== 1) {
    log.info({ msg: 'escrow desk worker ready', worker, database: driver });
    return;
  }
  const sealed = await sealPlaintextSecrets(db);
  if (sealed) log.info({ msg: 'secrets encrypted at rest', count: sealed });
  if (await hasLiveClient(db)) {
    // Said on every start, seeding on or off: the demo sign-ins printed by `npm start` no longer work here.
    log.warn({ msg: RETIRED_DEMO_MESSAGE });
  } else if (env().ESCROW_SEED_DEMO === '1') {
    const seeded = await seedDemoOnce(db, new Date(), `http://localhost:${env().PORT}`);
    if (seeded) log.info({ msg: 'demo data seeded', ...seeded });
    const accounts = await seedDashboardAccounts(db, new Date());
    if (accounts.length) log.info({ msg: 'demo dashboard accounts seeded', accounts });
  }
  if (workers === 1) await startRunners({ db, driver });
  log.info({ msg: 'escrow desk ready', database: driver });
}

/** How often a worker started while the database is down asks again. */
const DATABASE_RETRY_MS = 2_000;

/**
 * The database, migrated and holding this server's encryption key (a server holding another key than its peers must
 * not start). A worker the primary starts while the server is already serving waits out a database outage (said once)
 * instead of exiting into a restart every second (docs/operations.md, "When the database is down").
 */
async function openDatabase(): Promise<Awaited<ReturnType<typeof database>>> {
  for (let waiting = false; ; ) {
    try {
      const opened = await database();
      await assertSameEncryptionKey(opened.db, new Date());
      if (waiting) log.info({ msg: 'database available again: starting' });
      return opened;
    } catch (error) {
      if (env().ESCROW_WORKER_WAITS_FOR_DATABASE !== '1' || !databaseUnavailability(error)) throw error;
      if (!waiting) log.warn({ msg: 'database unavailable at start: waiting for it', error });
      waiting = true;
      await new Promise((resolve) => setTimeout(resolve, DATABASE_RETRY_MS));
    }
  }
}

/**
 * A server that cannot reach its database (or whose data directory is in use) must not linger
 * answering 500s: say why and stop.
 */
export async function startServerOrExit(): Promise<void> {
  try {
    await startServer();
  } catch (error) {
    console.error(`\nEscrow Desk could not start: ${(error as Error).message}\n`);
    // 78 (EX_CONFIG): scripts/production-server/workers.ts stops the whole server rather than replace this worker.
    process.exit(error instanceof EncryptionKeyMismatch ? 78 : 1);
  }
}
