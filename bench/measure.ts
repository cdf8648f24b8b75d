/**
 * One measured phase against a server: a closed loop at a fixed concurrency (throughput) or an open loop
 * at a fixed rate (latency), with the server's peak memory and its table maintenance meanwhile. Shared by
 * the main run (bench/run.ts) and the two-size phase (bench/two-sizes.ts).
 */
import { closedLoop, HttpDriver, openLoop, summarize, type LatencySummary, type Recorder } from './load';
import { medianOf } from './median';
import { samplePeakRss } from './memory';
import type { PhaseResult } from './result-types';
import type { Operation } from './scenarios';

export function phase(name: string, concurrency: number | null, ratePerSecond: number | null, recorder: Recorder, seconds: number, peakRssBytes: number, operations: string[]): PhaseResult {
  const latency: Record<string, LatencySummary> = {};
  for (const op of operations) latency[op] = summarize(recorder.samples.get(op) ?? []);
  const all = summarize(operations.flatMap((op) => recorder.samples.get(op) ?? []));
  const completed = recorder.count(operations[operations.length - 1]);
  return {
    name,
    concurrency,
    ratePerSecond,
    seconds: Math.round(seconds * 100) / 100,
    operationsPerSecond: Math.round((all.count / seconds) * 10) / 10,
    completedPerSecond: Math.round((completed / seconds) * 10) / 10,
    all,
    latency,
    errors: recorder.errorCount(),
    firstErrors: recorder.firstErrors,
    peakRssMb: Math.round(peakRssBytes / 1048576),
  };
}

/** `output`: the server's log so far, where it has one of ours. */
export type Target = { pid: number; baseUrl: string; key: string; output?: () => string };

/** The table-maintenance rounds a stretch of the server's log reports (one JSON line a round), merged. */
function vacuumsIn(log: string): Record<string, number> | undefined {
  let merged: Record<string, number> | undefined;
  for (const line of log.split('\n')) {
    if (!line.includes('"tables vacuumed"')) continue;
    const { ms } = JSON.parse(line) as { ms: Record<string, number> };
    merged ??= {};
    for (const [table, took] of Object.entries(ms)) merged[table] = (merged[table] ?? 0) + took;
  }
  return merged;
}

/** Starts watching the server's log: the returned function gives the maintenance rounds that ended since. */
function watchVacuums(target: Target): () => Record<string, number> | undefined {
  const from = target.output?.().length ?? 0;
  return () => vacuumsIn(target.output?.().slice(from) ?? '');
}

/**
 * Each phase opens its own keep-alive sockets: a socket left idle by the phase before could be closed by
 * the server's keep-alive timeout just as it is reused, an ECONNRESET of the driver's making.
 */
export async function measureClosed(target: Target, name: string, operations: string[], concurrency: number, ms: number, make: (worker: number) => Operation) {
  const api = new HttpDriver(target.baseUrl, target.key, concurrency);
  const vacuumsSinceStart = watchVacuums(target);
  const stopSampling = samplePeakRss(target.pid);
  const perWorker = Array.from({ length: concurrency }, (_, w) => make(w));
  const { recorder, seconds } = await closedLoop(concurrency, ms, (worker, rec) => perWorker[worker]!(api, rec, performance.now()));
  const result = phase(name, concurrency, null, recorder, seconds, stopSampling(), operations);
  result.vacuumed = vacuumsSinceStart();
  api.close();
  if (operations.length === 0) return result;
  console.log(`  ${name.padEnd(20)} c=${String(concurrency).padStart(3)}  ${String(result.operationsPerSecond).padStart(7)} op/s  p50 ${result.all.p50} p99 ${result.all.p99} ms  errors ${result.errors}  rss ${result.peakRssMb} MB`);
  if (result.errors) console.log(`    first errors: ${result.firstErrors.join(' | ')}`);
  return result;
}

export async function measureOpen(target: Target, name: string, operations: string[], ratePerSecond: number, ms: number, make: (index: number) => Operation, warmMs: number) {
  const api = new HttpDriver(target.baseUrl, target.key, 256);
  const vacuumsSinceStart = watchVacuums(target);
  // The phase's sockets are opened at its rate before it is measured: a cold driver opens a connection per
  // request in flight, and those slow first requests alone could be the 1% the p99 reads (bench/README.md, "Why these choices").
  const warm = await openLoop(ratePerSecond, warmMs, (index, at, rec) => make(index)(api, rec, at));
  const stopSampling = samplePeakRss(target.pid);
  const { recorder, seconds } = await openLoop(ratePerSecond, ms, (index, at, rec) => make(index)(api, rec, at));
  const result = phase(name, null, ratePerSecond, recorder, seconds, stopSampling(), operations);
  result.vacuumed = vacuumsSinceStart();
  // Its latencies are left out, never its errors.
  result.errors += warm.recorder.errorCount();
  result.firstErrors = [...warm.recorder.firstErrors, ...result.firstErrors].slice(0, 5);
  api.close();
  console.log(`  ${name.padEnd(20)} @${ratePerSecond.toFixed(1)}/s  p50 ${result.all.p50} p95 ${result.all.p95} p99 ${result.all.p99} ms  errors ${result.errors}${result.vacuumed ? `  vacuumed ${JSON.stringify(result.vacuumed)}` : ''}`);
  return result;
}

/** The round whose figure is the median of the rounds', with every round's figure beside it, their errors and peak memory. */
export function medianRound(rounds: PhaseResult[], figure: (p: PhaseResult) => number): PhaseResult {
  const errors = rounds.reduce((n, p) => n + p.errors, 0);
  const peakRssMb = Math.max(...rounds.map((p) => p.peakRssMb));
  return { ...medianOf(rounds, figure)!, errors, peakRssMb, rounds: rounds.map(figure) };
}
