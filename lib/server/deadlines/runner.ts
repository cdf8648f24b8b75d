import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { clients, type ClientRow } from '../db/schema';
import type { PolledRunner } from '../background-poller';
import { settleDueLapses, settleOnBehalfLapsesInBulk } from '../engine/apply-lapses';
import { announceApproachingDeadlines } from './approaching';
import { transactionsWithPassedDeadlines } from './scan';
import { queryRows } from '../db/rows';
import { logBackgroundFailure } from '../db/availability';
import { log } from '../logger';
import { watchClientChanges } from '../client-cache';

/** Candidates a scan returns. */
const PAGE = 400;

/** Transactions settled together in one database transaction: enough that a storm of lapses is a few statements per batch, few enough that the locks are held briefly. */
const BATCH = 200;

type Batch = { clientId: string; ids: string[] };

/** Candidates as batches of one client each, at most BATCH transactions in a batch. */
function toBatches(candidates: { transaction_id: string; client_id: string }[]): Batch[] {
  const byClient = new Map<string, Set<string>>();
  for (const row of candidates) byClient.set(row.client_id, (byClient.get(row.client_id) ?? new Set()).add(row.transaction_id));
  const batches: Batch[] = [];
  for (const [clientId, transactionIds] of byClient) {
    const all = [...transactionIds];
    for (let i = 0; i < all.length; i += BATCH) batches.push({ clientId, ids: all.slice(i, i + BATCH) });
  }
  return batches;
}

/**
 * Finds transactions with a passed deadline (each client's test clock included) and settles them: the
 * scan only finds candidates, the lapse engine decides on each transaction under its row lock. State,
 * not memory, says what is due, so a restart loses nothing; the transaction row locks make each lapse
 * act once even with several runners on one PostgreSQL. `wait: false` skips rows another runner is
 * already settling instead of queueing behind them. Returns how many lapses acted and how many
 * candidates the scan found (as many as `limit`: more may be due).
 */
export async function runDueDeadlines(db: DbOrTx, opts: { wallNow: Date; clientId?: string; wait?: boolean; limit?: number }): Promise<{ acted: number; candidates: number }> {
  // Announced first, so a deadline within its notice is announced by the same pass (a test clock's move).
  await announceApproachingDeadlines(db, { wallNow: opts.wallNow, clientId: opts.clientId });
  const candidates = await queryRows<{ transaction_id: string; client_id: string }>(
    db,
    transactionsWithPassedDeadlines({ wallNow: opts.wallNow, clientId: opts.clientId, limit: opts.limit ?? PAGE }),
  );
  let acted = 0;
  for (const batch of toBatches(candidates)) acted += await settleBatch(db, batch, opts);
  return { acted, candidates: candidates.length };
}

/**
 * The background runner's pass: `lanes` batches settle side by side, each lane taking the next batch as
 * soon as its last one commits, while the next page of candidates is found: a lane never waits for the
 * others to finish a page, so one batch reads while another writes and the scan runs beside both. The
 * pass ends when a scan finds nothing new.
 *
 * A scan sees a batch's transactions as due until it commits, so the pass remembers what it has taken:
 * until a scan that began after the batch committed, and for the rest of the pass when that scan still
 * finds one due (it could not be settled: the next pass tries it again).
 */
export async function settleDueDeadlines(db: Db, opts: { wallNow: () => Date; lanes: number }): Promise<number> {
  const queue: Batch[] = [];
  /** Transactions taken in this pass: by the count of batches ended when theirs ended; undefined until then. */
  const taken = new Map<string, number | undefined>();
  let batchesEnded = 0;
  let exhausted = false;
  let failure: unknown;
  let scanning: Promise<void> | undefined;
  const findMore = () =>
    (scanning ??= (async () => {
      const endedBefore = batchesEnded;
      // Enough rows to reach a page of new ones past those taken that may still be due.
      const rows = await queryRows<{ transaction_id: string; client_id: string }>(
        db,
        transactionsWithPassedDeadlines({ wallNow: opts.wallNow(), limit: PAGE + taken.size }),
      );
      const due = new Set(rows.map((row) => row.transaction_id));
      for (const [id, ended] of taken) if (ended !== undefined && ended <= endedBefore && !due.has(id)) taken.delete(id);
      const fresh = rows.filter((row) => !taken.has(row.transaction_id));
      for (const row of fresh) taken.set(row.transaction_id, undefined);
      if (fresh.length === 0) exhausted = true;
      queue.push(...toBatches(fresh));
    })().finally(() => (scanning = undefined)));
  let acted = 0;
  const lane = async () => {
    while (!exhausted || queue.length > 0) {
      const batch = queue.shift();
      if (!batch) {
        await findMore();
        continue;
      }
      // The next page is found while this batch settles.
      if (queue.length === 0 && !exhausted) findMore().catch(() => undefined);
      // Not `acted += await …`: that reads the sum before the batch, and the other lane adds meanwhile.
      const settled = await settleBatch(db, batch, { wallNow: opts.wallNow(), wait: false });
      acted += settled;
      batchesEnded += 1;
      for (const id of batch.ids) taken.set(id, batchesEnded);
    }
  };
  await Promise.all(
    Array.from({ length: opts.lanes }, () =>
      lane().catch((error: unknown) => {
        // The other lanes stop at their next batch; the pass fails once they have.
        failure ??= error;
        exhausted = true;
        queue.length = 0;
      }),
    ),
  );
  if (failure) throw failure;
  return acted;
}

/**
 * One batch of one client's transactions, locked in id order (as every batch takes them, before any
 * ledger account) and settled in one database transaction (settleOnBehalfLapsesInBulk). What the bulk
 * path leaves, and every transaction of a batch that failed, is settled one at a time.
 */
async function settleBatch(db: DbOrTx, { clientId, ids }: Batch, opts: { wallNow: Date; wait?: boolean }): Promise<number> {
  const lock = rowLock(opts);
  let batch: { acted: number; left: string[] };
  try {
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
  let acted = batch.acted;
  for (const transactionId of batch.left) {
    try {
      acted += await settleOneTransaction(db, transactionId, clientId, opts);
    } catch (error) {
      // Left due: the next pass tries it again, and the others go on meanwhile.
      logSettlementError('a lapse could not be settled', { client_id: clientId, transaction_id: transactionId }, error);
    }
  }
  return acted;
}

function logSettlementError(msg: string, where: Record<string, string>, error: unknown) {
  logBackgroundFailure({ msg, ...where }, error);
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
 * Polls for lapsed deadlines in the background of this server process. A pass goes on while the scans
 * find more, so a storm of lapses is settled as fast as the batches go rather than a page per poll.
 */
export const deadlineRunner: PolledRunner = {
  name: 'deadline runner',
  intervalMs: (settings) => settings.ESCROW_DEADLINE_POLL_MS,
  // A client's change may be its test clock's move: the lapses it leaves past the clock request's own page settle at once.
  wakeOn: (wake) => watchClientChanges(wake),
  runOnce: async ({ db, driver }) => {
    // The embedded database has one connection: a second lane's batch would only queue behind the first.
    const lanes = driver === 'postgres' ? 2 : 1;
    // Announcements that fail are tried again next pass; the lapses, which move money, go on regardless.
    await announceApproachingDeadlines(db, { wallNow: new Date() }).catch((error: unknown) => logBackgroundFailure({ msg: 'deadline announcements failed' }, error));
    const acted = await settleDueDeadlines(db, { wallNow: () => new Date(), lanes });
    if (acted > 0) log.info({ msg: 'deadlines settled', acted });
  },
};
