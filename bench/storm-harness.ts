/**
 * What the storms share: a fresh PostgreSQL database filled by the benchmark's generator and
 * dropped afterwards, a server on it, and GET milestone read at a fixed rate before the storm (the quiet
 * figure) and all through it, so the two latencies compare like with like.
 */
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import type { Db } from '../lib/server/db/client';
import { AS_DEPLOYED, createDatabase, dropDatabase, startTestServer, type TestServer } from '../e2e/support/test-server';
import { generateDataset, generatorPool, MIGRATIONS_FOLDER, postgresSession, type DatasetOptions, type GeneratedClient, type GeneratedDataset } from './generate-data';
import { HttpDriver, openLoop, summarize, type LatencySummary, type Recorder } from './load';
import { MIN_ROUNDS } from './noise-rule';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type StormDatabase = { databaseUrl: string; connection: postgres.Sql; db: Db; client: GeneratedClient; generated: GeneratedDataset };

/**
 * Runs `body` on a fresh database the generator filled (its first client is the storm's), then drops it.
 * `namePrefix` names the database, so that one left behind by a killed run says whose it is.
 */
export async function onGeneratedDatabase<T>(options: DatasetOptions, body: (d: StormDatabase) => Promise<T>, namePrefix?: string): Promise<T> {
  const databaseUrl = await createDatabase(ADMIN_URL, namePrefix);
  const connection = generatorPool(databaseUrl);
  try {
    await migrate(drizzle(connection), { migrationsFolder: MIGRATIONS_FOLDER });
    const generated = await generateDataset(postgresSession(connection), options);
    return await body({ databaseUrl, connection, db: drizzle(connection) as unknown as Db, client: generated.clients[0]!, generated });
  } finally {
    await connection.end();
    await dropDatabase(ADMIN_URL, databaseUrl);
  }
}

/** The storm's server: the production server with its background worker, as `npm start` runs it on PostgreSQL. */
export function startStormServer(databaseUrl: string, env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ databaseUrl, env: { ESCROW_DB_POOL_SIZE: '10', ...AS_DEPLOYED, ...env }, nodeArgs: process.env.STORM_NODE_ARGS?.split(' ') ?? [] });
}

/** `quietRounds` and `stormRounds`: the p99 of each of the rounds the report takes the median of (bench/noise-rule.ts). */
export type StormLatency = { quiet: LatencySummary; storm: LatencySummary; quietRounds: number[]; stormRounds: number[]; errors: number };

/** A storm is one event: its rounds are its reads in consecutive fifths, and the quiet figure's are the same. */
const ROUNDS = MIN_ROUNDS;
const QUIET_MS = 15_000;

/** The p99 of each of `rounds` consecutive, near-equal groups of the windows' samples (fewer if there are fewer windows). */
function p99OfRounds(windows: Recorder[], rounds: number): number[] {
  const groups = Array.from({ length: rounds }, (_, i) => windows.slice(Math.floor((i * windows.length) / rounds), Math.floor(((i + 1) * windows.length) / rounds)));
  return groups.filter((group) => group.length > 0).map((group) => summarize(group.flatMap((r) => r.samples.get('GET milestone') ?? [])).p99);
}

/**
 * GET milestone at `ratePerSecond`: a warm-up, `quietMs` of quiet, then on while `storm` runs (it starts
 * the storm and resolves when the storm is over).
 */
export async function readsAroundStorm<T>(
  server: TestServer,
  client: GeneratedClient,
  milestoneIds: string[],
  opts: { ratePerSecond: number; quietMs?: number },
  storm: () => Promise<T>,
): Promise<StormLatency & { outcome: T }> {
  const api = new HttpDriver(server.baseUrl, client.secretKey, 256);
  try {
    let cursor = 0;
    const read = async (_index: number, at: number, recorder: Recorder) => {
      await recorder.time('GET milestone', at, () => api.expectOk('GET', `/v1/milestones/${milestoneIds[cursor++ % milestoneIds.length]}`));
    };
    await openLoop(opts.ratePerSecond, 3000, read);
    const quiet: Recorder[] = [];
    for (let round = 0; round < ROUNDS; round++) quiet.push((await openLoop(opts.ratePerSecond, (opts.quietMs ?? QUIET_MS) / ROUNDS, read)).recorder);
    let stormOver = false;
    const reads = (async () => {
      const recorders = [];
      while (!stormOver) recorders.push((await openLoop(opts.ratePerSecond, 1000, read)).recorder);
      return recorders;
    })();
    let outcome: T;
    try {
      outcome = await storm();
    } finally {
      stormOver = true;
    }
    const recorders = await reads;
    return {
      outcome,
      quiet: summarize(quiet.flatMap((r) => r.samples.get('GET milestone') ?? [])),
      storm: summarize(recorders.flatMap((r) => r.samples.get('GET milestone') ?? [])),
      quietRounds: p99OfRounds(quiet, ROUNDS),
      stormRounds: p99OfRounds(recorders, ROUNDS),
      errors: [...quiet, ...recorders].reduce((n, r) => n + r.errorCount(), 0),
    };
  } finally {
    api.close();
  }
}

/** Polls `done` every `pollMs` until it holds or `timeoutMs` passes; the time it held, or null. */
export async function whenDone(done: () => Promise<boolean>, timeoutMs: number, pollMs = 200): Promise<number | null> {
  const timeoutAt = performance.now() + timeoutMs;
  while (performance.now() < timeoutAt) {
    if (await done()) return performance.now();
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return null;
}
