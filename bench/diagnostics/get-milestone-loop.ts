/**
 * Usage: npx tsx bench/diagnostics/get-milestone-loop.ts [--rounds=3] [--seconds=15] [--concurrency=32]
 *
 * GET /v1/milestones/{id} throughput on PostgreSQL (BENCH_DATABASE_URL or the machine's) in a closed loop,
 * to compare two builds of the server without a whole `npm run bench`: one line per round, with the CPU
 * time each request cost the server's processes and the PostgreSQL backends serving its database, which
 * moves much less than the throughput on a machine shared with other work.
 */
import fs from 'node:fs';
import { onDatabase, startTestServer } from '../../e2e/support/test-server';
import { closedLoop, HttpDriver, summarize } from '../load';
import { prepareDataset, READS } from '../scenarios';

const USAGE = 'Usage: npx tsx bench/diagnostics/get-milestone-loop.ts [--rounds=3] [--seconds=15] [--concurrency=32]';

const flag = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const ROUNDS = flag('rounds', 3);
const SECONDS = flag('seconds', 15);
const CONCURRENCY = flag('concurrency', 32);
/** Until the JIT has settled (bench/README.md, "Why these choices"). */
const WARM_MS = 20_000;

const CLOCK_TICKS_PER_SECOND = 100;

function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** User plus system CPU of these processes so far, in ms (fields 14 and 15 of /proc/<pid>/stat). */
function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited
    }
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The PostgreSQL backends connected to the server's own database. */
async function backendPids(databaseUrl: string): Promise<number[]> {
  const rows = await onDatabase(databaseUrl, (sql) => sql<Array<{ pid: number }>>`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
  return rows.map((r) => r.pid);
}

async function main() {
  if (process.argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const server = await startTestServer({ env: { ESCROW_DB_POOL_SIZE: '10' } });
  try {
    const data = await prepareDataset(server.baseUrl, server.operatorKey, CONCURRENCY);
    const getMilestone = READS['GET milestone']!(data);
    const loop = async (ms: number) => {
      const api = new HttpDriver(server.baseUrl, data.key, CONCURRENCY);
      const result = await closedLoop(CONCURRENCY, ms, (_, recorder) => getMilestone(api, recorder, performance.now()));
      api.close();
      return result;
    };
    await loop(WARM_MS);
    const serverPids = [server.process.pid!, ...childrenOf(server.process.pid!)];
    const databasePids = await backendPids(server.databaseUrl!);
    for (let round = 1; round <= ROUNDS; round++) {
      const [serverBefore, databaseBefore] = [cpuMs(serverPids), cpuMs(databasePids)];
      const { recorder, seconds } = await loop(SECONDS * 1000);
      const [serverCpu, databaseCpu] = [cpuMs(serverPids) - serverBefore, cpuMs(databasePids) - databaseBefore];
      const latency = summarize(recorder.samples.get('GET milestone') ?? []);
      const perSecond = Math.round(latency.count / seconds);
      const perRequest = (ms: number) => (ms / latency.count).toFixed(3);
      console.log(
        `round ${round}: c=${CONCURRENCY} ${perSecond} req/s  p50 ${latency.p50} p99 ${latency.p99} ms  CPU a request: server ${perRequest(serverCpu)} ms, PostgreSQL ${perRequest(databaseCpu)} ms  errors ${recorder.errorCount()}${recorder.firstErrors.length ? ` (${recorder.firstErrors[0]})` : ''}`,
      );
    }
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
