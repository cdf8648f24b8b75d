/**
 * Usage: npx tsx --conditions=react-server bench/diagnostics/explain.ts --database-url=postgres://… [--query=reminders] [--runs=3] [--set=name:value,…]
 *
 * EXPLAIN (ANALYZE, BUFFERS) of one of the app's background queries, built by the app's own code, on a
 * database of any size (bench/generate-data.ts makes one): run it on two sizes to see whether a plan
 * changes with the data. The last of `runs` plans is printed, once the earlier runs have warmed the cache.
 */
import { sql, type SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { dueRemindersQuery } from '../../lib/server/email/reminders';
import { cliFlags } from '../generate-data';

const USAGE = 'Usage: npx tsx --conditions=react-server bench/diagnostics/explain.ts --database-url=postgres://… [--query=reminders] [--runs=3] [--set=name:value,…]';

const QUERIES: Record<string, (now: Date) => SQL> = {
  reminders: (now) => dueRemindersQuery(now, 200),
};

async function main() {
  if (process.argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  const args = cliFlags();
  const name = args.get('query') ?? 'reminders';
  const build = QUERIES[name];
  if (!build) throw new Error(`--query is one of: ${Object.keys(QUERIES).join(', ')}`);
  const connection = postgres(args.get('database-url')!, { max: 1, onnotice: () => {} });
  try {
    const db = drizzle(connection);
    // --set=name:value,… : settings for this session, to compare a plan under them.
    for (const setting of args.get('set')?.split(',') ?? []) {
      const [name, value] = setting.split(':');
      await connection`select set_config(${name!}, ${value!}, false)`;
    }
    let plan: string[] = [];
    for (let run = 0; run < Number(args.get('runs') ?? 3); run++) {
      const rows = await db.execute<{ 'QUERY PLAN': string }>(sql`explain (analyze, buffers) ${build(new Date())}`);
      plan = rows.map((r) => r['QUERY PLAN']);
    }
    console.log(plan.join('\n'));
  } finally {
    await connection.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
