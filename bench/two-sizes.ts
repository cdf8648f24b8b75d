/**
 * The same measurements at two sizes: for each size a fresh database filled by the generator
 * (bench/generate-data.ts: one big client with that many transactions, 99 clients with a thousandth of
 * it each), the production server on it, and on the big client the main run's reads, the reads whose cost
 * could grow with its history (LARGE_DATA_READS) and the lifecycles, each in a closed loop at c=32 and in
 * an open loop at half of the small size's throughput (one rate for both); the server's peak memory; on
 * PostgreSQL the dashboard's transaction page LCP, signed in as one of the big client's customers. Both
 * sizes are up at once and measured in rounds that alternate between them (measureAlternately), so that the
 * ratio is the data's and not the machine's.
 *
 *   npx tsx --conditions=react-server bench/two-sizes.ts --database=postgres --sizes=10000,1000000 --out=result.json [--quick] [--no-lcp] [--rounds=5] [--only='list users page,…']
 *
 * `--only` measures just the named operations, for more rounds of one doubtful figure.
 *
 * A process of its own, as the storms are: the generator's ledger audit is the app's (server-only).
 * `npm run bench` runs it once per database (bench/run.ts). PostgreSQL: BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres, a database of its own per size, dropped afterwards.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Db } from '../lib/server/db/client';
import { passwordHash } from '../e2e/support/dashboard-accounts';
import { startTestServer, type TestServer } from '../e2e/support/test-server';
import { largeTransaction, signedInPageLcp, type Lcp } from './dashboard-lcp';
import {
  checkGenerated,
  cliFlags,
  datasetOptionsForSize,
  generateDataset,
  MIGRATIONS_FOLDER,
  pgliteSession,
  postgresSession,
  type GeneratedCheck,
  type GeneratedClient,
  type GeneratedDataset,
  type SqlSession,
} from './generate-data';
import { HttpDriver } from './load';
import { measureClosed, measureOpen, medianRound, type Target } from './measure';
import { samplePeakRssByProcess, treeRssBytes } from './memory';
import type { PhaseResult, SizeResult, TwoSizesResult } from './result-types';
import { twoSizeTiming, type TwoSizeTiming } from './settings';
import { LARGE_DATA_READS, LIFECYCLES, preparePairs, READS, twentyMilestoneTransaction, type LargeDataset, type Operation } from './scenarios';
import { onGeneratedDatabase, startStormServer } from './storm-harness';

const CONCURRENCY = 32;
/** The big client's first buyer: the generator gives each buyer the same number of deals, so its history is as long at either size. */
const CUSTOMER_EMAIL = 'buyer.1@client1.example.com';
const CUSTOMER_PASSWORD = 'bench-customer-pass';

/**
 * Each window is one round's: a figure is the median of its rounds (bench/noise-rule.ts). One pause of the
 * machine (a kernel burst, a collection) decides a short window's p99, and a longer window only catches more
 * of them: more rounds, each short, let the median step over the rounds a pause spoiled.
 */
type Timing = TwoSizeTiming;

/** What the reads name, found in the generated database before the server starts. */
type Facts = Omit<LargeDataset, 'key' | 'pairs' | 'twentyMilestonesId'> & { sellerId: string };

export async function factsOf(session: SqlSession, client: Pick<GeneratedClient, 'id'>): Promise<Facts> {
  const one = async (statement: string) => {
    const id = (await session.run(statement))[0]?.id;
    if (id === undefined) throw new Error(`the generated database has no row for: ${statement}`);
    return String(id);
  };
  const clientId = `'${client.id}'`;
  const [counted] = await session.run(`select (select count(*) from transactions where client_id = ${clientId})::bigint as transactions,
    (select count(*) from events where client_id = ${clientId})::bigint as events`);
  // Halfway down each list: the cursor names a row with as many rows before it as after.
  const deepTransactionId = await one(`select id from transactions where client_id = ${clientId} order by id limit 1 offset ${Math.floor(Number(counted?.transactions ?? 0) / 2)}`);
  const deepEventId = await one(`select id from events where client_id = ${clientId} order by id limit 1 offset ${Math.floor(Number(counted?.events ?? 0) / 2)}`);
  const customerId = await one(`select id from users where client_id = ${clientId} and email_lower = '${CUSTOMER_EMAIL}'`);
  const sellerId = await one(`select id from users where client_id = ${clientId} and email_lower = '${CUSTOMER_EMAIL.replace('buyer.', 'seller.')}'`);
  const milestoneIds = (await session.run(`select id from milestones where client_id = ${clientId} order by id desc limit 2000`)).map((r) => String(r.id));
  return { deepTransactionId, deepEventId, customerId, sellerId, milestoneIds };
}

/** The dashboard's way in for the customer: an account, and the client's key (plaintext here, sealed by the server as it starts). */
async function letCustomerIn(session: SqlSession, client: GeneratedClient, customerId: string): Promise<void> {
  await session.run(`insert into dashboard_accounts (id, email, name, role, client_id, escrow_user_id, password_hash)
    values ('${randomUUID()}', '${CUSTOMER_EMAIL}', 'Buyer No. 1', 'customer', '${client.id}', '${customerId}', '${passwordHash(CUSTOMER_PASSWORD)}')`);
  await session.run(`insert into dashboard_client_keys (client_id, secret_key) values ('${client.id}', '${client.secretKey}')`);
}

type Prepared = { server: TestServer; databaseUrl?: string; client: GeneratedClient; generated: GeneratedDataset; check: GeneratedCheck; facts: Facts };

/** A PostgreSQL database of its own filled to `size`, its server, `body`; then both gone. */
function onPostgres<T>(size: number, body: (p: Prepared) => Promise<T>): Promise<T> {
  return onGeneratedDatabase(
    datasetOptionsForSize(size),
    async ({ databaseUrl, connection, db, client, generated }) => {
      const session = postgresSession(connection);
      const check = await checkGenerated(session, db);
      const facts = await factsOf(session, client);
      await letCustomerIn(session, client, facts.customerId);
      const server = await startStormServer(databaseUrl);
      try {
        return await body({ server, databaseUrl, client, generated, check, facts });
      } finally {
        await server.stop();
      }
    },
    'bench_twosize',
  );
}

/** A PGlite data directory filled to `size` (closed again before its server opens it), the server, `body`; then both gone. */
async function onPglite<T>(size: number, body: (p: Prepared) => Promise<T>): Promise<T> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-twosize-'));
  try {
    const pg = new PGlite(path.join(dataDir, 'pgdata'));
    let prepared: Omit<Prepared, 'server'>;
    try {
      await migratePglite(drizzlePglite(pg), { migrationsFolder: MIGRATIONS_FOLDER });
      const session = pgliteSession(pg);
      const generated = await generateDataset(session, datasetOptionsForSize(size));
      const client = generated.clients[0]!;
      const check = await checkGenerated(session, drizzlePglite(pg) as unknown as Db);
      prepared = { client, generated, check, facts: await factsOf(session, client) };
    } finally {
      await pg.close();
    }
    delete process.env.TEST_DATABASE_URL;
    const server = await startTestServer({ dataDir });
    try {
      return await body({ ...prepared, server });
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export type Measured = { name: string; operations: string[]; steps: number; make: (worker: number) => Operation };

/** The operations the phase measures on a dataset: the main run's reads, the reads of a long history, the lifecycles. */
export function measuredOperations(data: LargeDataset): Measured[] {
  return [
    ...Object.entries(READS).map(([name, make]) => ({ name, operations: [name], steps: 1, make: () => make(data) })),
    ...Object.entries(LARGE_DATA_READS).map(([name, make]) => ({ name, operations: [name], steps: 1, make: () => make(data) })),
    ...Object.entries(LIFECYCLES).map(([name, lifecycle]) => ({
      name,
      operations: lifecycle.operations,
      steps: lifecycle.operations.length,
      make: (w: number) => lifecycle.run(data, data.pairs[w % data.pairs.length]!),
    })),
  ];
}

/** One size made ready: its database generated, its server up, what its reads name, and its figures so far. */
type SizeUnderTest = {
  size: number;
  prepared: Prepared;
  target: Target;
  measured: Measured[];
  startRssMb: number;
  /** Stops sampling each process's peak (before the LCP phase, as the tree's peak covers the rounds only). */
  stopProcessSampling: () => Record<string, number>;
  closed: PhaseResult[];
  halfPeak: PhaseResult[];
};

/** Generates `size`, starts its server, finds what the reads name; then `body`, then all gone. */
async function onSize<T>(database: TwoSizesResult['database'], size: number, timing: Timing, only: string[] | undefined, body: (s: SizeUnderTest) => Promise<T>): Promise<T> {
  console.log(`\n== ${database}: ${size.toLocaleString('en')} transactions ==`);
  const on = database === 'postgres' ? onPostgres : onPglite;
  return on(size, async (prepared) => {
    const { server, client, generated, check, facts } = prepared;
    console.log(`  generated in ${generated.seconds.toFixed(1)} s, ${Math.round(check.databaseBytes / 1048576)} MB, ledger audit ${check.audit.balanced ? 'balanced' : 'NOT balanced'} (${check.auditSeconds} s)`);
    const slowest = [...generated.timings].sort((a, b) => b.seconds - a.seconds).slice(0, 4);
    console.log(`  its slowest statements: ${slowest.map((t) => `${t.seconds.toFixed(1)} s ${t.statement}`).join(' | ')}`);
    const pid = server.process.pid as number;
    const startRssMb = Math.round(treeRssBytes(pid) / 1048576);
    const target: Target = { pid, baseUrl: server.baseUrl, key: client.secretKey, output: server.output };
    const api = new HttpDriver(server.baseUrl, client.secretKey, 8);
    let data: LargeDataset;
    try {
      const pairs = await preparePairs(api, CONCURRENCY);
      data = { ...facts, key: client.secretKey, pairs, twentyMilestonesId: await twentyMilestoneTransaction(api, pairs[0]!) };
    } finally {
      api.close();
    }
    const measured = measuredOperations(data).filter((m) => !only || only.includes(m.name));
    const stopProcessSampling = samplePeakRssByProcess(pid);
    return body({ size, prepared, target, measured, startRssMb, stopProcessSampling, closed: [], halfPeak: [] });
  });
}

/**
 * Each operation on both sizes in alternating rounds (small, big; big, small; small, big …), both servers
 * up throughout, so that the machine's drift over minutes moves both sides of each round alike
 * (bench/README.md, "Why these choices").
 * Each size's figure is its median round: throughput in a closed loop at c=32, then p99 in an open loop
 * at one rate for both, half of the small size's median throughput.
 */
async function measureAlternately(small: SizeUnderTest, big: SizeUnderTest, timing: Timing): Promise<void> {
  console.log(`\n== ${timing.closedRounds} (throughput) and ${timing.openRounds} (p99) alternating rounds a figure: ${small.size.toLocaleString('en')} and ${big.size.toLocaleString('en')} ==`);
  const order = (round: number) => (round % 2 === 0 ? [small, big] : [big, small]);
  // Every operation warmed on both before any is measured, as in the main run: here, not as each server
  // starts, since the small one then waits out the big one's generation, which evicts its cached pages.
  for (const s of [small, big]) for (const m of s.measured) await measureClosed(s.target, 'warm-up', [], 8, timing.warmMs / s.measured.length, m.make);
  for (let i = 0; i < small.measured.length; i++) {
    const closedRounds = new Map<SizeUnderTest, PhaseResult[]>([[small, []], [big, []]]);
    for (let round = 0; round < timing.closedRounds; round++) {
      for (const s of order(round)) {
        const m = s.measured[i]!;
        const ms = m.steps > 1 ? timing.lifecycleMs : timing.readMs;
        closedRounds.get(s)!.push(await measureClosed(s.target, `${m.name} [${s.size}]`, m.operations, CONCURRENCY, ms, m.make));
      }
    }
    for (const s of [small, big]) s.closed.push({ ...medianRound(closedRounds.get(s)!, (p) => p.operationsPerSecond), name: s.measured[i]!.name });
    const openRounds = new Map<SizeUnderTest, PhaseResult[]>([[small, []], [big, []]]);
    for (let round = 0; round < timing.openRounds; round++) {
      for (const s of order(round)) {
        const m = s.measured[i]!;
        // Both sizes at half of the small one's peak: at half of its own, the size whose rounds ran faster
        // would also be loaded harder, and its p99 would say so rather than its data.
        const rate = small.closed[i]!.operationsPerSecond / 2 / m.steps;
        openRounds.get(s)!.push(await measureOpen(s.target, `${m.name} [${s.size}]`, m.operations, rate, timing.halfPeakMs, m.make, timing.openWarmMs));
      }
    }
    for (const s of [small, big]) s.halfPeak.push({ ...medianRound(openRounds.get(s)!, (p) => p.all.p99), name: s.measured[i]!.name });
  }
}

/** After the rounds: the dashboard's LCP on PostgreSQL, the memory, the figures. */
async function sizeResult(s: SizeUnderTest, timing: Timing): Promise<SizeResult> {
  const { server, databaseUrl, client, generated, check, facts } = s.prepared;
  const peakRssByProcessMb = s.stopProcessSampling();
  let lcp: Lcp | null = null;
  if (databaseUrl && timing.lcpLoads > 0) {
    // Direct SQL writes the long log, which a PGlite data directory open in its server does not allow.
    const lcpApi = new HttpDriver(server.baseUrl, client.secretKey, 4);
    try {
      const transactionId = await largeTransaction(lcpApi, databaseUrl, facts.customerId, facts.sellerId);
      lcp = await signedInPageLcp(server.baseUrl, transactionId, { email: CUSTOMER_EMAIL, password: CUSTOMER_PASSWORD }, timing.lcpLoads);
      console.log(`  ${s.size.toLocaleString('en')}: transaction page LCP ${lcp.lcpMs.join(', ')} ms (median ${lcp.medianMs})`);
    } finally {
      lcpApi.close();
    }
  }
  const peakRssMb = Math.max(s.startRssMb, ...s.closed.map((p) => p.peakRssMb), ...s.halfPeak.map((p) => p.peakRssMb));
  console.log(`  ${s.size.toLocaleString('en')}: server RSS ${s.startRssMb} MB at start, ${peakRssMb} MB at most; each process's peak ${JSON.stringify(peakRssByProcessMb)}`);
  return {
    transactions: s.size,
    generation: {
      seconds: Number(generated.seconds.toFixed(1)),
      databaseBytes: check.databaseBytes,
      auditSeconds: check.auditSeconds,
      auditBalanced: check.audit.balanced,
      ledgerEntries: check.audit.entries,
    },
    closed: s.closed,
    halfPeak: s.halfPeak,
    startRssMb: s.startRssMb,
    peakRssMb,
    peakRssByProcessMb,
    lcp,
  };
}

/** The smallest and the biggest of `sizes`, both up at once and measured in alternating rounds. */
export async function twoSizes(
  database: TwoSizesResult['database'],
  sizes: number[],
  { quick = false, withLcp = true, rounds, only }: { quick?: boolean; withLcp?: boolean; rounds?: number; only?: string[] } = {},
): Promise<TwoSizesResult> {
  const timing: Timing = twoSizeTiming(quick);
  if (rounds !== undefined) timing.closedRounds = timing.openRounds = rounds;
  if (!withLcp) timing.lcpLoads = 0;
  // Checked before the generating, which takes minutes, not after it.
  const names = [...Object.keys(READS), ...Object.keys(LARGE_DATA_READS), ...Object.keys(LIFECYCLES)];
  const unknown = only?.filter((name) => !names.includes(name)) ?? [];
  if (unknown.length > 0) throw new Error(`--only names no operation: ${unknown.join(', ')} (there are: ${names.join(', ')})`);
  const [smallSize, bigSize] = [Math.min(...sizes), Math.max(...sizes)];
  return onSize(database, smallSize, timing, only, (small) =>
    onSize(database, bigSize, timing, only, async (big) => {
      await measureAlternately(small, big, timing);
      return { database, sizes: [await sizeResult(small, timing), await sizeResult(big, timing)] };
    }),
  );
}

async function main() {
  const flags = cliFlags();
  const database = flags.get('database') === 'pglite' ? 'pglite' : 'postgres';
  const sizes = (flags.get('sizes') ?? '10000,1000000').split(',').map(Number);
  const out = flags.get('out');
  const rounds = flags.has('rounds') ? Number(flags.get('rounds')) : undefined;
  if (rounds !== undefined && !(Number.isInteger(rounds) && rounds > 0)) throw new Error(`--rounds must be a whole number above 0, not ${flags.get('rounds')}`);
  const only = flags.get('only')?.split(',');
  const result = await twoSizes(database, sizes, { quick: flags.has('quick'), withLcp: !flags.has('no-lcp'), rounds, only });
  if (out) fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  else console.log(JSON.stringify(result, null, 2));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
