/**
 * Where a phase's time goes in the database: runs one of the two-size phases against a database already
 * generated (bench/generate-data.ts, kept), with pg_stat_statements reset before it, and prints the
 * statements that took the most time with their calls, mean time and buffers per call. Run it on the
 * 10,000 and the 1,000,000 database to see which statement's cost grows with the data.
 *
 *   npx tsx --conditions=react-server bench/statement-costs.ts --database-url=postgres://…/gen_1m --client-id=… --key=sk_test_… --phase='escrow lifecycle'[,'list events deep',…] [--seconds=20] [--top=25] [--width=400]
 *
 * Needs pg_stat_statements in shared_preload_libraries (the server's setting, not this app's).
 */
import postgres from 'postgres';
import { cliFlags } from './generate-data';
import { HttpDriver } from './load';
import { measureClosed, type Target } from './measure';
import { LARGE_DATA_READS, LIFECYCLES, preparePairs, READS, twentyMilestoneTransaction, type LargeDataset, type Operation } from './scenarios';
import { startStormServer } from './storm-harness';

const CUSTOMER_EMAIL = 'buyer.1@client1.example.com';

async function main() {
  const args = cliFlags();
  const databaseUrl = args.get('database-url')!;
  const phaseName = args.get('phase') ?? 'escrow lifecycle';
  const seconds = Number(args.get('seconds') ?? 20);
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  await sql`create extension if not exists pg_stat_statements`;
  // The generator prints the big client's id and key (its report's big_client); only a hash of the key is stored.
  const clientId = args.get('client-id')!;
  const key = args.get('key')!;
  const one = async (rows: postgres.RowList<postgres.Row[]>) => String(rows[0]!.id);
  const [counted] = await sql`select (select count(*) from transactions where client_id = ${clientId})::int as transactions, (select count(*) from events where client_id = ${clientId})::int as events`;
  const facts = {
    deepTransactionId: await one(await sql`select id from transactions where client_id = ${clientId} order by id limit 1 offset ${Math.floor(counted!.transactions / 2)}`),
    deepEventId: await one(await sql`select id from events where client_id = ${clientId} order by id limit 1 offset ${Math.floor(counted!.events / 2)}`),
    customerId: await one(await sql`select id from users where client_id = ${clientId} and email_lower = ${CUSTOMER_EMAIL}`),
    milestoneIds: (await sql`select id from milestones where client_id = ${clientId} order by id desc limit 2000`).map((r) => String(r.id)),
  };
  const server = await startStormServer(databaseUrl);
  try {
    const target: Target = { pid: server.process.pid as number, baseUrl: server.baseUrl, key, output: server.output };
    const api = new HttpDriver(server.baseUrl, key, 8);
    const pairs = await preparePairs(api, 32);
    const data: LargeDataset = { ...facts, key, pairs, twentyMilestonesId: await twentyMilestoneTransaction(api, pairs[0]!) };
    api.close();
    // Several phases, comma-separated, one after another on the one server.
    for (const name of phaseName.split(',')) {
      const lifecycle = LIFECYCLES[name];
      const read = READS[name] ?? LARGE_DATA_READS[name];
      if (!lifecycle && !read) throw new Error(`no phase named ${name}`);
      const operations = lifecycle?.operations ?? [name];
      const make: (w: number) => Operation = lifecycle ? (w) => lifecycle.run(data, pairs[w % pairs.length]!) : () => read!(data);
      await measureClosed(target, 'warm-up', [], 8, 5000, make);
      await sql`select pg_stat_statements_reset()`;
      const result = await measureClosed(target, name, operations, 32, seconds * 1000, make);
      console.log(`\n${name}: ${result.operationsPerSecond} op/s, p99 ${result.all.p99} ms, errors ${result.errors}`);
      const rows = await sql`
        select calls, round(total_exec_time::numeric, 1) as total_ms, round(mean_exec_time::numeric, 3) as mean_ms,
          round(shared_blks_hit::numeric / calls, 1) as hit, round(shared_blks_read::numeric / calls, 2) as read,
          round(rows::numeric / calls, 1) as rows_per_call, regexp_replace(query, '\\s+', ' ', 'g') as query
        from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
        order by total_exec_time desc limit ${Number(args.get('top') ?? 25)}`;
      for (const r of rows) console.log(`${r.total_ms} ms\t${r.calls}×\t${r.mean_ms} ms\thit ${r.hit}\tread ${r.read}\trows ${r.rows_per_call}\t${String(r.query).slice(0, Number(args.get('width') ?? 400))}`);
    }
    const vacuums = server.output().split('\n').filter((l) => l.includes('tables vacuumed'));
    console.log(`maintenance rounds while it ran: ${vacuums.length}`, vacuums.slice(-3).join('\n'));
  } finally {
    await server.stop();
    await sql.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
