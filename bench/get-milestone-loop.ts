/**
 * A short look at one number: GET /v1/milestones/{id} throughput on PostgreSQL in a closed loop, for
 * comparing two builds of the server (e.g. before and after a change to the per-request work) without
 * the whole `npm run bench`. Prints one line per round.
 *
 * Usage: npx tsx bench/get-milestone-loop.ts [--rounds=3] [--seconds=15] [--concurrency=32]
 * DATABASE: BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres.
 */
import { startTestServer } from '../e2e/support/test-server';
import { closedLoop, HttpDriver, summarize } from './load';
import { prepareDataset, READS } from './scenarios';

const flag = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const ROUNDS = flag('rounds', 3);
const SECONDS = flag('seconds', 15);
const CONCURRENCY = flag('concurrency', 32);
/** Until the JIT has settled (bench/run.ts's WARM_MS says why). */
const WARM_MS = 20_000;

async function main() {
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
    for (let round = 1; round <= ROUNDS; round++) {
      const { recorder, seconds } = await loop(SECONDS * 1000);
      const latency = summarize(recorder.samples.get('GET milestone') ?? []);
      const perSecond = Math.round(latency.count / seconds);
      console.log(`round ${round}: c=${CONCURRENCY} ${perSecond} req/s  p50 ${latency.p50} p99 ${latency.p99} ms  errors ${recorder.errorCount()}${recorder.firstErrors.length ? ` (${recorder.firstErrors[0]})` : ''}`);
    }
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
