/**
 * The deadline storm (issue #28): a client with thousands of running deadlines moves its test clock past
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
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { transactionsWithPassedDeadlines } from '../lib/server/deadlines/scan';
import type { Db } from '../lib/server/db/client';
import { ledgerIntegrity } from '../lib/server/services/ledger-integrity';
import { createDatabase, dropDatabase, startTestServer } from '../e2e/support/test-server';
import { cliFlags, generateDataset, MIGRATIONS_FOLDER, postgresSession } from './generate-data';
import { HttpDriver, openLoop, summarize, type LatencySummary, type Recorder } from './load';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
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
  const databaseUrl = await createDatabase(ADMIN_URL);
  // One connection: the generator's temporary tables live in its session.
  const connection = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  const db = drizzle(connection) as unknown as Db;
  try {
    await migrate(drizzle(connection), { migrationsFolder: MIGRATIONS_FOLDER });
    const generated = await generateDataset(postgresSession(connection), {
      clients: 1,
      bigClientTransactions: opts.transactions,
      otherClientTransactions: 1,
      states: ['under_inspection'],
    });
    const client = generated.clients[0]!;
    const milestoneIds = (await connection`select id from milestones where client_id = ${client.id} limit 2000`).map((r) => String(r.id));
    const due = await dueCount(db, MOVE_DAYS * DAY_MS);
    const twiceBefore = await actedTwice(db);
    const server = await startTestServer({ databaseUrl, env: { ESCROW_DB_POOL_SIZE: '10' }, nodeArgs: process.env.STORM_NODE_ARGS?.split(' ') ?? [] });
    const api = new HttpDriver(server.baseUrl, client.secretKey, 256);
    try {
      let cursor = 0;
      const read = async (_index: number, at: number, recorder: Recorder) => {
        await recorder.time('GET milestone', at, () => api.expectOk('GET', `/v1/milestones/${milestoneIds[cursor++ % milestoneIds.length]}`));
      };
      await openLoop(opts.ratePerSecond, 3000, read);
      const quiet = await openLoop(opts.ratePerSecond, opts.quietMs ?? 30_000, read);

      // The storm: reads go on at the same rate while the clock moves and the lapses are settled.
      const started = performance.now();
      let settledAt: number | null = null;
      let stormOver = false;
      const reads = (async () => {
        const recorders = [];
        while (!stormOver) recorders.push((await openLoop(opts.ratePerSecond, 1000, read)).recorder);
        return recorders;
      })();
      const advance = await fetch(`${server.baseUrl}/v1/test-clock/advance`, {
        method: 'POST',
        headers: { authorization: client.secretKey, 'content-type': 'application/json' },
        body: JSON.stringify({ days: MOVE_DAYS }),
      });
      const advanceMs = performance.now() - started;
      const advanced = (await advance.json()) as { data?: { settled?: number } };
      if (advance.status !== 200) throw new Error(`advance → ${advance.status} ${JSON.stringify(advanced)}`);
      const timeoutAt = started + (opts.timeoutMs ?? 600_000);
      while (performance.now() < timeoutAt) {
        if ((await dueCount(db, 0, 1)) === 0) {
          settledAt = performance.now();
          break;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      stormOver = true;
      const recorders = await reads;
      const stormSamples = recorders.flatMap((r) => r.samples.get('GET milestone') ?? []);
      const errors = quiet.recorder.errorCount() + recorders.reduce((n, r) => n + r.errorCount(), 0);
      const seconds = settledAt === null ? null : (settledAt - started) / 1000;
      const audit = await ledgerIntegrity(db);
      return {
        transactions: opts.transactions,
        due,
        settledInRequest: advanced.data?.settled ?? 0,
        advanceMs: Math.round(advanceMs),
        secondsUntilAllSettled: seconds === null ? null : Number(seconds.toFixed(2)),
        lapsesPerSecond: seconds ? Math.round(due / seconds) : 0,
        actedTwice: (await actedTwice(db)) - twiceBefore,
        ledgerBalanced: audit.balanced,
        quiet: summarize(quiet.recorder.samples.get('GET milestone') ?? []),
        storm: summarize(stormSamples),
        errors,
      };
    } finally {
      api.close();
      await server.stop();
    }
  } finally {
    await connection.end();
    await dropDatabase(ADMIN_URL, databaseUrl);
  }
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
