/**
 * Usage: npx tsx --conditions=react-server bench/diagnostics/lifecycle-share.ts [rounds=5]
 *
 * The lifecycle target alone, to try a change to the write path without a whole `npm run bench`: the
 * production server on the machine's PostgreSQL (BENCH_DATABASE_URL), warmed on the escrow lifecycle, then
 * rounds of the lifecycle at c=32 alternating with pgbench runs of the same length, as the bench's paired
 * rounds do. Prints each round's ratio and the ratio of the sums, and the CPU time the server, PostgreSQL
 * and this process (the load driver) spent per lifecycle operation, the steadier figure to compare two
 * versions by when the machine's speed drifts; beside it, the CPU per operation the target allows (the
 * machine's cores over 25% of the round's pgbench TPS). PostgreSQL's time is that of all its processes on
 * the machine meanwhile, so nothing else should be running.
 */
import os from 'node:os';
import { ensureBuild } from '../../scripts/ensure-build';
import { startTestServer } from '../../e2e/support/test-server';
import { preparePgbench } from '../ceilings';
import { measureClosed, type Target } from '../measure';
import { machineBusyMs, postgresCpuMs, postgresCpuSince, treeCpuMs } from '../memory';
import { LIFECYCLES, prepareDataset } from '../scenarios';

const USAGE = 'Usage: npx tsx --conditions=react-server bench/diagnostics/lifecycle-share.ts [rounds=5]';

const ROUNDS = Number(process.argv[2] ?? 5);
const ROUND_MS = 5000;
const WARM_MS = 20_000;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The bench's lifecycle target (bench/report.ts): operations per second at c=32 as a share of pgbench's TPS. */
const TARGET_SHARE = 0.25;
const CORES = os.availableParallelism();

/** CPU time this process (the load driver) has used, in ms. */
const driverCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** The CPU time per operation, in ms, that lets the machine's cores run the target's rate. */
const allowedMsPerOperation = (pgbenchTps: number) => (CORES * 1000) / (TARGET_SHARE * pgbenchTps);

async function main() {
  if (process.argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`rounds must be a positive whole number, not ${process.argv[2]}`);
  ensureBuild();
  process.env.TEST_DATABASE_URL = ADMIN_URL;
  const server = await startTestServer({ env: { ESCROW_DB_POOL_SIZE: '10' } });
  const pgbench = await preparePgbench(ADMIN_URL);
  try {
    const data = await prepareDataset(server.baseUrl, server.operatorKey, 32);
    const target: Target = { pid: server.process.pid as number, baseUrl: server.baseUrl, key: data.key, output: server.output };
    const lifecycle = LIFECYCLES['escrow lifecycle']!;
    const run = (w: number) => lifecycle.run(data, data.pairs[w % data.pairs.length]!);
    await measureClosed(target, 'warm-up', [], 8, WARM_MS, run);
    let operations = 0;
    let transactions = 0;
    const cpu = { server: 0, postgres: 0, driver: 0, machine: 0, operations: 0 };
    const pgbenchMachine = { busyMs: 0, transactions: 0 };
    const perOperation = (spent: typeof cpu) =>
      `server ${(spent.server / spent.operations).toFixed(2)} ms, PostgreSQL ${(spent.postgres / spent.operations).toFixed(2)} ms, load driver ${(spent.driver / spent.operations).toFixed(2)} ms (the whole machine ${(spent.machine / spent.operations).toFixed(2)} ms)`;
    for (let round = 1; round <= ROUNDS; round++) {
      const [server, postgres, driver, machine] = [treeCpuMs(target.pid), postgresCpuMs(), driverCpuMs(), machineBusyMs()];
      const measured = await measureClosed(target, 'escrow lifecycle', lifecycle.operations, 32, ROUND_MS, run);
      const spent = {
        server: treeCpuMs(target.pid) - server,
        postgres: postgresCpuSince(postgres),
        driver: driverCpuMs() - driver,
        machine: machineBusyMs() - machine,
        operations: measured.operationsPerSecond * measured.seconds,
      };
      // pgbench's backends end with its run, before a reading of their CPU could be taken: the machine's is read instead.
      const beforePgbench = machineBusyMs();
      const tps = await pgbench.run(ROUND_MS / 1000);
      const pgbenchRound = { busyMs: machineBusyMs() - beforePgbench, transactions: tps * (ROUND_MS / 1000) };
      pgbenchMachine.busyMs += pgbenchRound.busyMs;
      pgbenchMachine.transactions += pgbenchRound.transactions;
      operations += measured.operationsPerSecond;
      transactions += tps;
      for (const key of ['server', 'postgres', 'driver', 'machine', 'operations'] as const) cpu[key] += spent[key];
      const share = (100 * measured.operationsPerSecond) / tps;
      console.log(
        `round ${round}: lifecycle ${measured.operationsPerSecond.toFixed(1)} op/s (${measured.errors} errors), pgbench ${tps.toFixed(0)} tps: ${share.toFixed(1)}%;` +
          ` CPU per operation: ${perOperation(spent)}; ${TARGET_SHARE * 100}% of pgbench allows ${allowedMsPerOperation(tps).toFixed(2)} ms in all` +
          ` (the machine spent ${(pgbenchRound.busyMs / pgbenchRound.transactions).toFixed(2)} ms per pgbench transaction)`,
      );
    }
    console.log(`sum: ${operations.toFixed(1)} / ${transactions.toFixed(0)} = ${((100 * operations) / transactions).toFixed(1)}%`);
    console.log(`CPU per operation over all rounds: ${perOperation(cpu)}; ${TARGET_SHARE * 100}% of the mean pgbench TPS allows ${allowedMsPerOperation(transactions / ROUNDS).toFixed(2)} ms in all on ${CORES} cores`);
    console.log(`The machine's CPU per pgbench transaction (TPC-B-like; PostgreSQL and pgbench), over all rounds: ${(pgbenchMachine.busyMs / pgbenchMachine.transactions).toFixed(2)} ms`);
  } finally {
    await pgbench.drop();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
