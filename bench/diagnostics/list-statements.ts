/**
 * Usage: npx tsx --conditions=react-server bench/diagnostics/list-statements.ts --database-url=postgres://… | --pglite=DIR [--size=2000] [--runs=200] [--limit=20]
 *
 * Where GET /v1/transactions spends its time, statement by statement and in building the records: reads pages of
 * the big client of a generated database (bench/generate-data.ts; with --pglite, a fresh one of --size is made in
 * DIR) with the app's own list code, and prints the mean ms of each read and of the rows' records over `runs`.
 */
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { count, desc, eq, sql } from 'drizzle-orm';
import * as schema from '../../lib/server/db/schema';
import type { Db } from '../../lib/server/db/client';
import { listTransactions } from '../../lib/server/services/transactions';
import { ListTransactionsQuery } from '../../lib/contracts/transactions';
import { cliFlags, datasetOptionsForSize, generateDataset, generatorPool, MIGRATIONS_FOLDER, pgliteSession } from '../generate-data';
import { loadListedTransactionsExtras, type ListedMilestone } from '../../lib/server/records/transaction-list';
import { transactionTurns } from '../../lib/server/records/transaction-graph/present';

type TransactionRow = typeof schema.transactions.$inferSelect;

/** The reads the list makes for what it shows of each row, beside the page and its parties, and what it builds of them. */
function listReads(db: Db, clientId: string, now: Date): Record<string, (page: TransactionRow[]) => Promise<unknown>> {
  const milestonesOf = new Map<TransactionRow[], ListedMilestone[]>();
  return {
    'page parties and milestones (loadListedTransactionsExtras)': async (page) =>
      milestonesOf.set(page, (await loadListedTransactionsExtras(db, clientId, page.map((t) => t.id), page.flatMap((t) => [t.buyerPartyId, t.sellerPartyId]))).milestones),
    'whose turn of the page (JS)': async (page) =>
      page.map((t) => transactionTurns({ transaction: t, milestones: milestonesOf.get(page)!.filter((m) => m.milestone.transactionId === t.id) }, now)),
  };
}

async function openDatabase(args: Map<string, string>): Promise<{ db: Db; close: () => Promise<void> }> {
  const url = args.get('database-url');
  if (url) {
    const connection = generatorPool(url);
    return { db: drizzlePostgres(connection, { schema }) as unknown as Db, close: () => connection.end() };
  }
  const dir = args.get('pglite');
  if (!dir) throw new Error('Name a database: --database-url=postgres://… or --pglite=DIR');
  const fresh = !fs.existsSync(dir);
  const pg = new PGlite(dir);
  // As the app's embedded database runs (lib/server/db/client.ts).
  await pg.exec('set join_collapse_limit = 1; set from_collapse_limit = 1');
  const db = drizzlePglite(pg, { schema }) as unknown as Db;
  if (fresh) {
    await migratePglite(drizzlePglite(pg), { migrationsFolder: MIGRATIONS_FOLDER });
    await generateDataset(pgliteSession(pg), datasetOptionsForSize(Number(args.get('size') ?? 2000)));
  }
  return { db, close: () => pg.close() };
}

async function meanMs(runs: number, body: (run: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 5; i++) await body(i);
  const started = performance.now();
  for (let i = 0; i < runs; i++) await body(i);
  return Math.round(((performance.now() - started) / runs) * 1000) / 1000;
}

const USAGE = 'Usage: npx tsx --conditions=react-server bench/diagnostics/list-statements.ts --database-url=postgres://… | --pglite=DIR [--size=2000] [--runs=200] [--limit=20]';

async function main() {
  if (process.argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  const args = cliFlags();
  const runs = Number(args.get('runs') ?? 200);
  const limit = Number(args.get('limit') ?? 20);
  const { db, close } = await openDatabase(args);
  try {
    // The generator's big client is the one with the most transactions.
    const [most] = await db
      .select({ clientId: schema.transactions.clientId, n: count() })
      .from(schema.transactions)
      .groupBy(schema.transactions.clientId)
      .orderBy(desc(count()))
      .limit(1);
    const [big] = await db.select().from(schema.clients).where(eq(schema.clients.id, most!.clientId));
    const counted = most!.n;
    console.log(`client ${big!.id}: ${counted} transactions; page of ${limit}; mean of ${runs} runs`);
    const pages = await Promise.all(
      [1, 2, 3, 4, 5].map((page) => db.select().from(schema.transactions).where(eq(schema.transactions.clientId, big!.id)).orderBy(desc(schema.transactions.createdAt), desc(schema.transactions.id)).limit(limit).offset((page - 1) * limit)),
    );
    const now = new Date();
    const q = (page: number) => ListTransactionsQuery.parse({ page: String(page), limit: String(limit) });
    const figures: Record<string, number> = {
      'whole list (listTransactions)': await meanMs(runs, (i) => listTransactions(db, big!, q((i % 5) + 1), now)),
      'one trivial statement (select 1), for scale': await meanMs(runs, () => db.execute(sql`select 1`)),
      'the page alone (select of the client\'s 21 newest)': await meanMs(runs, () =>
        db.select().from(schema.transactions).where(eq(schema.transactions.clientId, big!.id)).orderBy(desc(schema.transactions.createdAt), desc(schema.transactions.id)).limit(limit + 1),
      ),
    };
    for (const [name, read] of Object.entries(listReads(db, big!.id, now))) figures[name] = await meanMs(runs, (i) => read(pages[i % 5]!));
    for (const [name, ms] of Object.entries(figures)) console.log(`  ${name.padEnd(48)} ${ms.toFixed(3).padStart(8)} ms`);
  } finally {
    await close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
