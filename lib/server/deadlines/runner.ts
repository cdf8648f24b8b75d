import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Database, Db, DbOrTx } from '../db/client';
import { clients, type ClientRow } from '../db/schema';
import { startPoller } from '../background-poller';
import { env } from '../env';
import { settleDueLapses, settleOnBehalfLapsesInBulk } from './apply-lapses';
import { transactionsWithPassedDeadlines } from './scan';
import { queryRows } from '../db/rows';
import { loggableError } from '../log-error';

/** Runs `work` over `items`, at most `limit` at a time. */
async function mapConcurrently<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Candidates a scan returns. */
const PAGE = 400;

/** Transactions settled together in one database transaction: enough that a storm of lapses is a few statements per batch, few enough that the locks are held briefly. */
const BATCH = 200;

/**
 * Finds transactions with a passed deadline (each client's test clock included) and settles them: the
 * scan only finds candidates, the lapse engine decides on each transaction under its row lock. State,
 * not memory, says what is due, so a restart loses nothing; the transaction row locks make each lapse
 * act once even with several runners on one PostgreSQL. `wait: false` skips rows another runner is
 * already settling instead of queueing behind them. `batchesAtOnce` above 1 needs a pool (`db`, not a
 * transaction's one connection). Returns how many lapses acted and how many candidates the scan found (as
 * many as `limit`: more may be due).
 */
export async function runDueDeadlines(
  db: DbOrTx,
  opts: { wallNow: Date; clientId?: string; wait?: boolean; limit?: number; batchesAtOnce?: number },
): Promise<{ acted: number; candidates: number }> {
  const candidates = await queryRows<{ transaction_id: string; client_id: string }>(
    db,
    transactionsWithPassedDeadlines({ wallNow: opts.wallNow, clientId: opts.clientId, limit: opts.limit ?? PAGE }),
  );
  const lock = rowLock(opts);
  const byClient = new Map<string, Set<string>>();
  for (const row of candidates) byClient.set(row.client_id, (byClient.get(row.client_id) ?? new Set()).add(row.transaction_id));
  const batches: { clientId: string; ids: string[] }[] = [];
  for (const [clientId, transactionIds] of byClient) {
    const all = [...transactionIds];
    for (let i = 0; i < all.length; i += BATCH) batches.push({ clientId, ids: all.slice(i, i + BATCH) });
  }
  let acted = 0;
  // With two at a time, one batch reads while the other writes. Their transactions differ, and each locks
  // its accounts in the one order every writer takes, so they wait on each other's shared accounts at most.
  await mapConcurrently(batches, opts.batchesAtOnce ?? 1, async ({ clientId, ids }) => {
    let batch: { acted: number; left: string[] };
    try {
      // Locked in id order, as every batch takes them, before any ledger account.
      batch = await db.transaction(async (tx) => {
        const [client] = await tx.select().from(clients).where(eq(clients.id, clientId));
        if (!client) return { acted: 0, left: [] };
        const locked = await queryRows<{ id: string }>(
          tx,
          sql`select id from transactions where id = any(${sql.param(ids)}::uuid[]) and client_id = ${clientId}::uuid order by id ${lock}`,
        );
        return settleOnBehalfLapsesInBulk(tx, client, locked.map((row) => row.id), clientNow(client, opts.wallNow));
      });
    } catch (error) {
      // One transaction that cannot be settled must not hold up the rest of its batch: each goes alone.
      logSettlementError('a batch of lapses failed: settling its transactions one at a time', { client_id: clientId }, error);
      batch = { acted: 0, left: ids };
    }
    acted += batch.acted;
    for (const transactionId of batch.left) {
      try {
        acted += await settleOneTransaction(db, transactionId, clientId, opts);
      } catch (error) {
        // Left due: the next tick tries it again, and the others go on meanwhile.
        logSettlementError('a lapse could not be settled', { client_id: clientId, transaction_id: transactionId }, error);
      }
    }
  });
  return { acted, candidates: candidates.length };
}

function logSettlementError(msg: string, where: Record<string, string>, error: unknown) {
  console.error(JSON.stringify({ level: 'error', msg, ...where, error: loggableError(error) }));
}

/** `wait: false` skips rows another runner holds instead of queueing behind them. */
const rowLock = (opts: { wait?: boolean }) => (opts.wait === false ? sql`for update skip locked` : sql`for update`);

const clientNow = (client: ClientRow, wallNow: Date) => new Date(wallNow.getTime() + client.clockOffsetMs);

/** Settles one transaction's due lapses in a database transaction of its own (settleDueLapses). */
async function settleOneTransaction(db: DbOrTx, transactionId: string, clientId: string, opts: { wallNow: Date; wait?: boolean }): Promise<number> {
  return db.transaction(async (tx) => {
    const locked = await queryRows(tx, sql`select id from transactions where id = ${transactionId} ${rowLock(opts)}`);
    if (locked.length === 0) return 0;
    const [client] = await tx.select().from(clients).where(eq(clients.id, clientId));
    if (!client) return 0;
    return settleDueLapses(tx, client, transactionId, clientNow(client, opts.wallNow));
  });
}

/**
 * Polls for lapsed deadlines in the background of this server process. A tick goes on while the scan
 * finds a full page, so a storm of lapses is settled as fast as the batches go rather than a page per
 * poll; it yields to requests between pages.
 */
export function startDeadlineRunner(db: Db, driver: Database['driver']): void {
  // The embedded database has one connection: its batches would only queue behind each other.
  const batchesAtOnce = driver === 'postgres' ? 2 : 1;
  startPoller('deadline runner', env().ESCROW_DEADLINE_POLL_MS, async () => {
    let acted = 0;
    for (;;) {
      const page = await runDueDeadlines(db, { wallNow: new Date(), wait: false, batchesAtOnce });
      acted += page.acted;
      if (page.candidates < PAGE || page.acted === 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (acted > 0) console.log(JSON.stringify({ level: 'info', msg: 'deadlines settled', acted }));
  });
}
