/**
 * Usage: npx tsx --conditions=react-server bench/diagnostics/lifecycle-share.ts [rounds=5]
 *
 * The lifecycle target alone, to try a change to the write path without a whole `npm run bench`: the
 * production server on the machine's PostgreSQL (BENCH_DATABASE_URL) and the bare write server
 * (bench/bare-server.ts) in one process and in one per core, all warmed on the escrow lifecycle, then rounds
 * of the lifecycle at c=32 on each in turn, as the bench's paired rounds do. Prints each round's share of
 * the better bare server and the share of the sums, and the CPU time the server, PostgreSQL and this process
 * (the load driver) spent per lifecycle operation on each, the steadier figure to compare two versions by
 * when the machine's speed drifts. PostgreSQL's time is that of all its processes on the machine meanwhile,
 * so nothing else should be running.
 */
import os from 'node:os';
import { ensureBuild } from '../../scripts/ensure-build';
import { startTestServer } from '../../e2e/support/test-server';
import { startBareServer } from '../ceilings';
import { measureClosed, type Target } from '../measure';
import { postgresCpuMs, postgresCpuSince, treeCpuMs } from '../memory';
import { LIFECYCLES, prepareDataset } from '../scenarios';

const USAGE = 'Usage: npx tsx --conditions=react-server bench/diagnostics/lifecycle-share.ts [rounds=5]';

const ROUNDS = Number(process.argv[2] ?? 5);
const ROUND_MS = 5000;
const WARM_MS = 20_000;
const POOL_SIZE = 10;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The bench's lifecycle target (bench/report.ts): operations per second at c=32 as a share of the bare write server's. */
const TARGET_SHARE = 0.6;

/** CPU time this process (the load driver) has used, in ms. */
const driverCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

type Spent = { server: number; postgres: number; driver: number; operations: number };
const perOperation = (s: Spent) =>
  `server ${(s.server / s.operations).toFixed(2)} ms, PostgreSQL ${(s.postgres / s.operations).toFixed(2)} ms, load driver ${(s.driver / s.operations).toFixed(2)} ms`;

async function main() {
  if (process.argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`rounds must be a positive whole number, not ${process.argv[2]}`);
  ensureBuild();
  process.env.TEST_DATABASE_URL = ADMIN_URL;
  const server = await startTestServer({ env: { ESCROW_DB_POOL_SIZE: String(POOL_SIZE) } });
  const bares = [await startBareServer(server.databaseUrl as string, POOL_SIZE, 1), await startBareServer(server.databaseUrl as string, POOL_SIZE, os.availableParallelism())];
  try {
    const data = await prepareDataset(server.baseUrl, server.operatorKey, 32);
    const lifecycle = LIFECYCLES['escrow lifecycle']!;
    const run = (w: number) => lifecycle.run(data, data.pairs[w % data.pairs.length]!);
    const targets: Array<{ name: string; target: Target }> = [
      { name: 'app', target: { pid: server.process.pid as number, baseUrl: server.baseUrl, key: data.key, output: server.output } },
      ...bares.map((b) => ({ name: `bare, ${b.workers} process${b.workers === 1 ? '' : 'es'}`, target: { pid: b.process.pid as number, baseUrl: b.baseUrl, key: data.key } })),
    ];
    for (const { target } of targets) await measureClosed(target, 'warm-up', [], 8, WARM_MS / targets.length, run);
    const sums = new Map(targets.map((t) => [t.name, { server: 0, postgres: 0, driver: 0, operations: 0, perSecond: 0 }]));
    for (let round = 1; round <= ROUNDS; round++) {
      const perSecond = new Map<string, number>();
      // Alternating which goes first, so that none always follows another.
      for (const { name, target } of round % 2 === 1 ? targets : [...targets].reverse()) {
        const [serverCpu, postgresCpu, driver] = [treeCpuMs(target.pid), postgresCpuMs(), driverCpuMs()];
        const measured = await measureClosed(target, `${name} lifecycle`, lifecycle.operations, 32, ROUND_MS, run);
        const sum = sums.get(name)!;
        sum.server += treeCpuMs(target.pid) - serverCpu;
        sum.postgres += postgresCpuSince(postgresCpu);
        sum.driver += driverCpuMs() - driver;
        sum.operations += measured.operationsPerSecond * measured.seconds;
        sum.perSecond += measured.operationsPerSecond;
        perSecond.set(name, measured.operationsPerSecond);
      }
      const better = Math.max(...[...perSecond].filter(([name]) => name !== 'app').map(([, x]) => x));
      console.log(`round ${round}: ${[...perSecond].map(([name, x]) => `${name} ${x.toFixed(1)} op/s`).join(', ')}: ${((100 * perSecond.get('app')!) / better).toFixed(1)}% of the better bare server`);
    }
    const app = sums.get('app')!;
    const better = Math.max(...[...sums].filter(([name]) => name !== 'app').map(([, s]) => s.perSecond));
    console.log(`sum: ${app.perSecond.toFixed(1)} / ${better.toFixed(1)} = ${((100 * app.perSecond) / better).toFixed(1)}% (target ${TARGET_SHARE * 100}%)`);
    for (const [name, spent] of sums) console.log(`CPU per operation, ${name}: ${perOperation(spent)}`);
  } finally {
    for (const b of bares) await b.stop();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
