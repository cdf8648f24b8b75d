/**
 * The deadline storm: a client with thousands of running deadlines moves its test clock past
 * all of them at once. Measures how fast the server settles the lapses (the request's own batch, then the
 * background runner), that none acts twice, and the API's latency meanwhile against its quiet value.
 *
 *   npx tsx --conditions=react-server bench/deadline-storm.ts --transactions=20000 [--rate=100]
 *
 * On PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres), in a database
 * of its own that it drops afterwards. The data comes from the benchmark's generator. STORM_NODE_ARGS
 * passes flags to the server's Node.js (`--cpu-prof --cpu-prof-dir=…` to see where a storm's time goes).
 */
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { transactionsWithPassedDeadlines } from '../lib/server/deadlines/scan';
import type { Db } from '../lib/server/db/client';
import { ledgerIntegrity } from '../lib/server/services/ledger-integrity';
import { cliFlags } from './generate-data';
import type { LatencySummary } from './load';
import { onGeneratedDatabase, readsAroundStorm, startStormServer, whenDone } from './storm-harness';

const DAY_MS = 86_400_000;
/** Far enough that every deadline the generator left running has passed. */
const MOVE_DAYS = 400;

export type DeadlineStormResult = {
  transactions: number;
  due: number;
  settledInRequest: number;
  advanceMs: number;
  secondsUntilAllSettled: number | null;
  lapsesPerSecond: number;
  actedTwice: number;
  ledgerBalanced: boolean;
  quiet: LatencySummary;
  storm: LatencySummary;
  /** GET milestone's p99 in each round (bench/storm-harness.ts): the target reads their medians. */
  quietRounds: number[];
  stormRounds: number[];
  errors: number;
};

/**
 * How many of the database's transactions have a deadline passed on their client's clock, `aheadMs` from
 * now, counting up to `limit` rows of the runner's scan (1: whether any is left, stopped at the first).
 */
async function dueCount(db: Db, aheadMs = 0, limit = 1_000_000_000): Promise<number> {
  const scan = transactionsWithPassedDeadlines({ wallNow: new Date(Date.now() + aheadMs), limit });
  const [row] = (await db.execute(sql`select count(distinct transaction_id)::int as n from (${scan}) s`)) as unknown as Array<{ n: number }>;
  return row?.n ?? 0;
}

/** Lapse events recorded more than once for one milestone or dispute: a lapse that acted twice. */
async function actedTwice(db: Db): Promise<number> {
  const rows = (await db.execute(sql`select count(*)::int as n from (
      select type, milestone_id, dispute_id from events
      where (data->>'automatic')::boolean is true
      group by type, milestone_id, dispute_id, transaction_id having count(*) > 1) twice`)) as unknown as Array<{ n: number }>;
  return rows[0]?.n ?? 0;
}

export async function deadlineStorm(opts: { transactions: number; ratePerSecond: number; quietMs?: number; timeoutMs?: number }): Promise<DeadlineStormResult> {
  const dataset = { clients: 1, bigClientTransactions: opts.transactions, otherClientTransactions: 1, states: ['under_inspection'] };
  return onGeneratedDatabase(dataset, async ({ databaseUrl, connection, db, client }) => {
    const milestoneIds = (await connection`select id from milestones where client_id = ${client.id} limit 2000`).map((r) => String(r.id));
    const due = await dueCount(db, MOVE_DAYS * DAY_MS);
    const twiceBefore = await actedTwice(db);
    const server = await startStormServer(databaseUrl);
    try {
      // The storm: reads go on at the same rate while the clock moves and the lapses are settled.
      const reads = await readsAroundStorm(server, client, milestoneIds, opts, async () => {
        const started = performance.now();
        const advance = await fetch(`${server.baseUrl}/v1/test-clock/advance`, {
          method: 'POST',
          headers: { authorization: client.secretKey, 'content-type': 'application/json' },
          body: JSON.stringify({ days: MOVE_DAYS }),
        });
        const advanceMs = performance.now() - started;
        const advanced = (await advance.json()) as { data?: { settled?: number } };
        if (advance.status !== 200) throw new Error(`advance → ${advance.status} ${JSON.stringify(advanced)}`);
        // Once a second: the check is the runner's own scan, which passes over every row the storm has settled
        // so far (until a vacuum), and checked more often it would take a core's share from the storm it measures.
        const settledAt = await whenDone(async () => (await dueCount(db, 0, 1)) === 0, opts.timeoutMs ?? 600_000, 1000);
        return { advanceMs, settledInRequest: advanced.data?.settled ?? 0, seconds: settledAt === null ? null : (settledAt - started) / 1000 };
      });
      const { advanceMs, settledInRequest, seconds } = reads.outcome;
      const audit = await ledgerIntegrity(db);
      return {
        transactions: opts.transactions,
        due,
        settledInRequest,
        advanceMs: Math.round(advanceMs),
        secondsUntilAllSettled: seconds === null ? null : Number(seconds.toFixed(2)),
        lapsesPerSecond: seconds ? Math.round(due / seconds) : 0,
        actedTwice: (await actedTwice(db)) - twiceBefore,
        ledgerBalanced: audit.balanced,
        quiet: reads.quiet,
        storm: reads.storm,
        quietRounds: reads.quietRounds,
        stormRounds: reads.stormRounds,
        errors: reads.errors,
      };
    } finally {
      await server.stop();
    }
  });
}

async function main() {
  const args = cliFlags();
  const result = await deadlineStorm({ transactions: Number(args.get('transactions') ?? 20_000), ratePerSecond: Number(args.get('rate') ?? 100) });
  console.log(JSON.stringify(result, null, 2));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
