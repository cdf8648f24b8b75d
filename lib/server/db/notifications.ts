import 'server-only';
import { sql } from 'drizzle-orm';
import { postgresClient, type DbOrTx } from './client';
import { queryRows } from './rows';

/**
 * PostgreSQL's LISTEN/NOTIFY between the server processes on one database: word that something changed,
 * sent with the change's own transaction (delivered when it commits, never for a rollback). The only
 * driver-specific code of it is `listen`: one connection of its own per process, outside the pool.
 */

/** Queues a notification in the caller's transaction; on the embedded database (one process) nobody listens and it costs nothing. */
export async function notify(db: DbOrTx, channel: string, payload: string): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

/** How many connections named `applicationName` are open on this database: the listeners a notification reaches. */
export async function countListeners(db: DbOrTx, applicationName: string): Promise<number> {
  const [row] = await queryRows<{ listeners: number }>(
    db,
    sql`select count(*)::int as listeners from pg_stat_activity where datname = current_database() and application_name = ${applicationName}`,
  );
  return Number(row?.listeners ?? 0);
}

export type Listening = { stop: () => Promise<void> };

/**
 * Listens on `channel` until stopped, on postgres.js's listening connection (named `applicationName`),
 * which reconnects by itself (with backoff) and listens again. Notifications sent while no connection
 * listened are lost for good: `lost` says when that begins (the connection's socket closes) and
 * `listening` when it ends, so the caller can drop whatever such a notification would have corrected.
 */
export function listen(
  url: string,
  channel: string,
  applicationName: string,
  on: { notification: (payload: string) => void; listening: () => void; lost: (error: unknown) => void },
): Listening {
  let stopped = false;
  const client = postgresClient(url, {
    max: 1,
    applicationName,
    // postgres.js reconnects without saying so: the socket's close is the moment notifications may be missed.
    onSocketClose: (error) => {
      if (!stopped) on.lost(error);
    },
  });
  client
    .listen(channel, (payload) => on.notification(payload), () => {
      if (!stopped) on.listening();
    })
    // The first LISTEN failed (the database was unreachable): the socket's close has said so, and the
    // library listens again once it reconnects.
    .catch(() => undefined);
  return {
    stop: async () => {
      stopped = true;
      await client.end({ timeout: 0 }).catch(() => undefined);
    },
  };
}
