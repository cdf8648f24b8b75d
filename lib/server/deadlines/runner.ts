import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { clients } from '../db/schema';
import { startPoller } from '../background-poller';
import { env } from '../env';
import { settleDueLapses } from './apply-lapses';
import { transactionsWithPassedDeadlines } from './scan';
import { queryRows } from '../db/rows';

/**
 * Finds transactions with a passed deadline (each client's test clock included) and settles them: the
 * scan only finds candidates, the lapse engine decides on each transaction under its row lock. State,
 * not memory, says what is due, so a restart loses nothing; the transaction row lock makes each lapse
 * act once even with several runners on one PostgreSQL. `wait: false` skips rows another runner is
 * already settling instead of queueing behind it.
 */
export async function runDueDeadlines(db: DbOrTx, opts: { wallNow: Date; clientId?: string; wait?: boolean; limit?: number }): Promise<number> {
  const candidates = await queryRows<{ transaction_id: string; client_id: string }>(
    db,
    transactionsWithPassedDeadlines({ wallNow: opts.wallNow, clientId: opts.clientId, limit: opts.limit ?? 200 }),
  );
  let acted = 0;
  for (const row of candidates) {
    acted += await db.transaction(async (tx) => {
      const lock = opts.wait === false ? sql`for update skip locked` : sql`for update`;
      const locked = await queryRows(tx, sql`select id from transactions where id = ${row.transaction_id} ${lock}`);
      if (locked.length === 0) return 0;
      const [client] = await tx.select().from(clients).where(eq(clients.id, row.client_id));
      if (!client) return 0;
      return settleDueLapses(tx, client, row.transaction_id, new Date(opts.wallNow.getTime() + client.clockOffsetMs));
    });
  }
  return acted;
}

/** Polls for lapsed deadlines in the background of this server process. */
export function startDeadlineRunner(db: Db): void {
  startPoller('deadline runner', env().ESCROW_DEADLINE_POLL_MS, async () => {
    const acted = await runDueDeadlines(db, { wallNow: new Date(), wait: false });
    if (acted > 0) console.log(JSON.stringify({ level: 'info', msg: 'deadlines settled', acted }));
  });
}
