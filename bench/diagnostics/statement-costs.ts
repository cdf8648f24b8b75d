/**
 * Usage: npx tsx --conditions=react-server bench/diagnostics/statement-costs.ts --database-url=postgres://… --client-id=… --key=sk_test_… [--phase='escrow lifecycle'[,'list events deep',…]] [--seconds=20] [--top=25] [--width=400]
 *
 * Where a phase's time goes in the database: runs phases of the two-size measurement (bench/two-sizes.ts)
 * against a database bench/generate-data.ts made and kept (it prints the big client's id and key), with
 * pg_stat_statements reset before each, and prints the statements that took the most time with their
 * calls, mean time and buffers per call. Run it on two sizes to see which statement's cost grows with the
 * data. Needs pg_stat_statements in the PostgreSQL server's shared_preload_libraries.
 */
import postgres from 'postgres';
import { cliFlags, postgresSession } from '../generate-data';
import { HttpDriver } from '../load';
import { measureClosed, type Target } from '../measure';
import { preparePairs, twentyMilestoneTransaction, type LargeDataset } from '../scenarios';
import { startStormServer } from '../storm-harness';
import { factsOf, measuredOperations } from '../two-sizes';

const USAGE = 'Usage: npx tsx --conditions=react-server bench/diagnostics/statement-costs.ts --database-url=postgres://… --client-id=… --key=sk_test_… [--phase=\'escrow lifecycle\'[,…]] [--seconds=20] [--top=25] [--width=400]';

async function main() {
  if (process.argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  const args = cliFlags();
  const databaseUrl = args.get('database-url')!;
  const phaseName = args.get('phase') ?? 'escrow lifecycle';
  const seconds = Number(args.get('seconds') ?? 20);
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  await sql`create extension if not exists pg_stat_statements`;
  // The generator prints the big client's id and key (its report's big_client); only a hash of the key is stored.
  const clientId = args.get('client-id')!;
  const key = args.get('key')!;
  const facts = await factsOf(postgresSession(sql), { id: clientId });
  const server = await startStormServer(databaseUrl);
  try {
    const target: Target = { pid: server.process.pid as number, baseUrl: server.baseUrl, key, output: server.output };
    const api = new HttpDriver(server.baseUrl, key, 8);
    const pairs = await preparePairs(api, 32);
    const data: LargeDataset = { ...facts, key, pairs, twentyMilestonesId: await twentyMilestoneTransaction(api, pairs[0]!) };
    api.close();
    // Several phases, comma-separated, one after another on the one server.
    const operations = measuredOperations(data);
    for (const name of phaseName.split(',')) {
      const m = operations.find((o) => o.name === name);
      if (!m) throw new Error(`no phase named ${name}`);
      await measureClosed(target, 'warm-up', [], 8, 5000, m.make);
      await sql`select pg_stat_statements_reset()`;
      const result = await measureClosed(target, name, m.operations, 32, seconds * 1000, m.make);
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
