import 'server-only';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { DbOrTx } from './client';

/**
 * PostgreSQL's LISTEN/NOTIFY between the server processes on one database: word that something changed,
 * sent with the change's own transaction (delivered when it commits, never for a rollback). The only
 * driver-specific code of it is `listen`: one connection of its own per process, outside the pool.
 */

/** Queues a notification in the caller's transaction; on the embedded database (one process) nobody listens and it costs nothing. */
export async function notify(db: DbOrTx, channel: string, payload: string): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

export type Listening = { stop: () => Promise<void> };

/**
 * Listens on `channel` until stopped, reconnecting after a lost connection (waiting 0.1 s, doubling up
 * to 5 s). Notifications sent while no connection listened are lost for good: `lost` says when that
 * begins and `listening` when it ends, so the caller can drop whatever such a notification would have
 * corrected.
 */
export function listen(
  url: string,
  channel: string,
  on: { notification: (payload: string) => void; listening: () => void; lost: (error: unknown) => void },
): Listening {
  let current: pg.Client | undefined;
  let stopped = false;
  let retryMs = 100;
  let timer: NodeJS.Timeout | undefined;

  const drop = (client: pg.Client, error: unknown) => {
    if (current !== client) return;
    current = undefined;
    on.lost(error);
    client.end().catch(() => undefined);
    if (stopped) return;
    timer = setTimeout(connect, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, 5000);
  };

  const connect = async () => {
    // keepAlive: a connection cut without a FIN (a failed-over server, a dropped NAT entry) still ends in time.
    const client = new pg.Client({ connectionString: url, keepAlive: true, application_name: 'escrow-desk listener' });
    current = client;
    client.on('notification', (message) => {
      if (message.channel === channel) on.notification(message.payload ?? '');
    });
    client.on('error', (error) => drop(client, error));
    client.on('end', () => drop(client, new Error('the listening connection ended')));
    try {
      await client.connect();
      await client.query(`listen "${channel.replaceAll('"', '""')}"`);
    } catch (error) {
      drop(client, error);
      return;
    }
    if (current !== client) return;
    retryMs = 100;
    on.listening();
  };

  void connect();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      const client = current;
      current = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
