/**
 * What the storms share: a fresh PostgreSQL database filled by the benchmark's generator and
 * dropped afterwards, a server on it, and GET milestone read at a fixed rate before the storm (the quiet
 * figure) and all through it, so the two latencies compare like with like.
 */
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import type { Db } from '../lib/server/db/client';
import { createDatabase, dropDatabase, startTestServer, type TestServer } from '../e2e/support/test-server';
import { generateDataset, generatorPool, MIGRATIONS_FOLDER, postgresSession, type DatasetOptions, type GeneratedClient, type GeneratedDataset } from './generate-data';
import { HttpDriver, openLoop, summarize, type LatencySummary, type Recorder } from './load';

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
  return startTestServer({ databaseUrl, env: { ESCROW_DB_POOL_SIZE: '10', ...env }, nodeArgs: process.env.STORM_NODE_ARGS?.split(' ') ?? [] });
}

export type StormLatency = { quiet: LatencySummary; storm: LatencySummary; errors: number };

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
    const quiet = await openLoop(opts.ratePerSecond, opts.quietMs ?? 30_000, read);
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
      quiet: summarize(quiet.recorder.samples.get('GET milestone') ?? []),
      storm: summarize(recorders.flatMap((r) => r.samples.get('GET milestone') ?? [])),
      errors: quiet.recorder.errorCount() + recorders.reduce((n, r) => n + r.errorCount(), 0),
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
