/**
 * How long each phase of `npm run bench` measures, in one place, and the run's length estimated from it:
 * the default run must fit in 35 minutes on this machine, --full adds the biggest size and the big storms,
 * --quick tries the harness (bench/README.md, "How to run" and "Why these choices").
 */
import { MIN_ROUNDS } from './noise-rule';
import { LARGE_DATA_READS, LIFECYCLES, READS } from './scenarios';

export type RunKind = 'quick' | 'default' | 'full';

/** The two-size phase's windows (bench/two-sizes.ts): throughput rounds at c=32, then p99 rounds in an open loop. */
export type TwoSizeTiming = {
  closedRounds: number;
  openRounds: number;
  readMs: number;
  lifecycleMs: number;
  halfPeakMs: number;
  openWarmMs: number;
  warmMs: number;
  lcpLoads: number;
};

export function twoSizeTiming(quick: boolean): TwoSizeTiming {
  return quick
    ? { closedRounds: 2, openRounds: 3, readMs: 1000, lifecycleMs: 1500, halfPeakMs: 1500, openWarmMs: 500, warmMs: 5000, lcpLoads: 2 }
    : { closedRounds: 3, openRounds: MIN_ROUNDS, readMs: 1500, lifecycleMs: 3000, halfPeakMs: 2000, openWarmMs: 1000, warmMs: 15_000, lcpLoads: 5 };
}

export function runSettings(kind: RunKind) {
  const quick = kind === 'quick';
  return {
    kind,
    slowSpellSeconds: quick ? 3 : 10,
    pgbenchSeconds: quick ? 5 : 20,
    /** Closed loops: c=8 and c=32 give the peak the open loops take half of; a full run adds c=1 and c=128 to the table. */
    concurrency: kind === 'full' ? [1, 8, 32, 128] : [8, 32],
    warmMs: quick ? 5000 : 30_000,
    readMs: quick ? 1500 : 4000,
    lifecycleMs: quick ? 2500 : 6000,
    /** Each latency figure is the median of rounds (bench/noise-rule.ts), each round this long after its warm-up. */
    openRounds: quick ? 2 : MIN_ROUNDS,
    openMs: quick ? 1500 : 3000,
    openWarmMs: quick ? 500 : 1000,
    /** The throughput targets' paired rounds at c=32. */
    pairedRounds: quick ? 2 : 3,
    pairedMs: quick ? 2000 : 5000,
    poolSize: 10,
    sizes: quick ? [2_000, 20_000] : kind === 'full' ? [10_000, 1_000_000] : [10_000, 100_000],
    stormSize: quick ? 5000 : kind === 'full' ? 100_000 : 10_000,
    stormReadsPerSecond: 50,
    twoSizes: twoSizeTiming(quick),
    dashboardLcpLoads: quick ? 2 : 5,
  };
}

export type RunSettings = ReturnType<typeof runSettings>;
export type RunParts = { postgres: boolean; pglite: boolean; storms: boolean; sizes: boolean; dashboard: boolean };

/**
 * What a phase costs besides its measuring windows, from this machine's runs (bench/README.md, "Why these
 * choices"): starting a server and making its dataset, generating a database per transaction, a storm's
 * lapses or deliveries per second, a dashboard phase.
 */
const OVERHEAD = {
  serverAndDatasetSeconds: 25,
  generateSecondsPerTransaction: { postgres: 0.0006, pglite: 0.0015 },
  stormPerSecond: 2000,
  stormQuietSeconds: 18,
  lcpLoadSeconds: 4,
  dashboardSeconds: 40,
};

const s = (ms: number) => ms / 1000;

/** The main phase on one database, and on PostgreSQL the ceilings beside it. */
function databaseSeconds(r: RunSettings, database: 'postgres' | 'pglite'): number {
  const reads = Object.keys(READS).length;
  const lifecycles = Object.keys(LIFECYCLES).length;
  const closed = r.concurrency.length * (reads * s(r.readMs) + lifecycles * s(r.lifecycleMs));
  const open = r.openRounds * (reads + lifecycles) * s(r.openWarmMs + r.openMs);
  let seconds = OVERHEAD.serverAndDatasetSeconds + s(r.warmMs) + closed + open;
  if (database === 'postgres') {
    const bareStarts = 2 * 5;
    const bareWarm = s(r.warmMs) / 3 + s(r.warmMs) / 3;
    const bareClosed = r.concurrency.length * s(r.readMs);
    const bareOpen = s(r.openWarmMs + r.openMs);
    const sameRate = r.openRounds * 2 * s(r.openWarmMs + r.openMs);
    // Each paired round: GET milestone here and on the bare server, the lifecycle here and on both bare servers.
    const paired = r.pairedRounds * 5 * s(r.pairedMs);
    seconds += s(r.readMs) + bareStarts + bareWarm + bareClosed + bareOpen + sameRate + paired;
  }
  return seconds;
}

function twoSizesSeconds(r: RunSettings, database: 'postgres' | 'pglite'): number {
  const t = r.twoSizes;
  const sizes = database === 'postgres' ? r.sizes : r.sizes.map((n) => Math.round(n / 10));
  const reads = Object.keys(READS).length + Object.keys(LARGE_DATA_READS).length;
  const lifecycles = Object.keys(LIFECYCLES).length;
  const perSize = t.closedRounds * (reads * s(t.readMs) + lifecycles * s(t.lifecycleMs)) + t.openRounds * (reads + lifecycles) * s(t.openWarmMs + t.halfPeakMs);
  const generating = sizes.reduce((sum, n) => sum + n * OVERHEAD.generateSecondsPerTransaction[database], 0);
  const lcp = database === 'postgres' ? 2 * t.lcpLoads * OVERHEAD.lcpLoadSeconds : 0;
  return 2 * (OVERHEAD.serverAndDatasetSeconds + s(t.warmMs) + perSize) + generating + lcp;
}

function stormSeconds(r: RunSettings): number {
  const one = OVERHEAD.serverAndDatasetSeconds + r.stormSize * OVERHEAD.generateSecondsPerTransaction.postgres + OVERHEAD.stormQuietSeconds + r.stormSize / OVERHEAD.stormPerSecond;
  return 2 * one;
}

/** The run's length estimated from its settings, phase by phase, in seconds (the build not included). */
export function estimateSeconds(r: RunSettings, parts: RunParts): Array<{ phase: string; seconds: number }> {
  const out: Array<{ phase: string; seconds: number }> = [{ phase: 'slow spells', seconds: r.slowSpellSeconds }];
  if (parts.postgres) {
    out.push({ phase: 'pgbench', seconds: r.pgbenchSeconds + 10 });
    out.push({ phase: 'postgres', seconds: databaseSeconds(r, 'postgres') });
    if (parts.storms) out.push({ phase: 'storms', seconds: stormSeconds(r) });
    if (parts.sizes) out.push({ phase: 'two sizes (postgres)', seconds: twoSizesSeconds(r, 'postgres') });
  }
  if (parts.pglite) {
    out.push({ phase: 'pglite', seconds: databaseSeconds(r, 'pglite') });
    if (parts.sizes) out.push({ phase: 'two sizes (pglite)', seconds: twoSizesSeconds(r, 'pglite') });
  }
  if (parts.dashboard) out.push({ phase: 'dashboard', seconds: OVERHEAD.dashboardSeconds + r.dashboardLcpLoads * OVERHEAD.lcpLoadSeconds });
  return out.map((p) => ({ phase: p.phase, seconds: Math.round(p.seconds) }));
}
