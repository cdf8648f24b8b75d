/**
 * Usage: npx tsx bench/diagnostics/profile.ts [lifecycle|read] [concurrency=1] [seconds=10]
 *
 * Where the server spends its time on one load: starts the production server (one worker, on PostgreSQL:
 * BENCH_DATABASE_URL or the machine's) under V8's CPU profiler, drives the escrow lifecycle or GET milestone
 * at the given concurrency, stops the server and prints the functions with the most self time. The
 * .cpuprofile is left under bench/raw for Chrome DevTools.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensureBuild } from '../../scripts/ensure-build';
import { startTestServer } from '../../e2e/support/test-server';
import { closedLoop, HttpDriver } from '../load';
import { LIFECYCLES, prepareDataset, READS } from '../scenarios';

const USAGE = 'Usage: npx tsx bench/diagnostics/profile.ts [lifecycle|read] [concurrency=1] [seconds=10]';

const ROOT = path.resolve(__dirname, '../..');
const [what = 'lifecycle', concurrencyArg = '1', secondsArg = '10'] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
const seconds = Number(secondsArg);

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

function topSelfTime(profile: Profile, limit = 40): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const time = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const url = node.callFrame.url.replace(/^.*node_modules\//, '~/').replace(`file://${ROOT}/`, '');
    const key = `${node.callFrame.functionName || '(anonymous)'} ${url}:${node.callFrame.lineNumber + 1}`;
    time.set(key, (time.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...time.values()].reduce((a, b) => a + b, 0);
  return [...time.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`);
}

async function main() {
  if (process.argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  ensureBuild();
  process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dir = path.join(ROOT, 'bench/raw', `profile-${Date.now()}`);
  fs.mkdirSync(dir, { recursive: true });
  const server = await startTestServer({ nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`], env: { ESCROW_WORKERS: '1' } });
  let operations = 0;
  try {
    const data = await prepareDataset(server.baseUrl, server.operatorKey, concurrency);
    const api = new HttpDriver(server.baseUrl, data.key, concurrency);
    const make = (worker: number) => (what === 'read' ? READS['GET milestone']!(data) : LIFECYCLES['escrow lifecycle']!.run(data, data.pairs[worker]!));
    const perWorker = Array.from({ length: concurrency }, (_, w) => make(w));
    // Warm the JIT first, then measure.
    await closedLoop(concurrency, 5000, (w, rec) => perWorker[w]!(api, rec, performance.now()));
    const { recorder, seconds: took } = await closedLoop(concurrency, seconds * 1000, (w, rec) => perWorker[w]!(api, rec, performance.now()));
    operations = recorder.count();
    console.log(`${what} c=${concurrency}: ${(operations / took).toFixed(1)} op/s over ${took.toFixed(1)} s`);
    api.close();
  } finally {
    await server.stop();
  }
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile written in ${dir}`);
  console.log(`\nself time (${path.join(dir, file)}):`);
  for (const line of topSelfTime(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Profile)) console.log(line);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
