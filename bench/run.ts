/**
 * Usage: npm run bench -- [--full | --quick] [--only=postgres|pglite] [--no-dashboard] [--no-storms] [--no-sizes] [--sizes=10000,100000]
 *
 * The production build driven over HTTP from this process, on PostgreSQL and on PGlite, beside this
 * machine's ceilings (a bare node:http + postgres.js server doing the same reads and writes, pgbench as the
 * machine's calibration line), the storms, the two-size phase and the dashboard's weight and LCP;
 * bench/README.md says what each phase measures and what the flags skip, bench/settings.ts how long.
 * A default or full run (neither --quick nor --only) appends a line to bench/results/history.md, and a full
 * one writes bench/results/latest.md; every run writes its raw figures to bench/raw/<date>.json and, unless
 * full, its report to bench/raw/<date>.md.
 * PostgreSQL: BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuild } from '../scripts/ensure-build';
import { newEncryptionKey } from '../e2e/support/sealed-secrets';
import { AS_DEPLOYED, startTestServer, type TestServer } from '../e2e/support/test-server';
import { firstLoadJs } from './bundle-size';
import { samplePeakRssByProcess } from './memory';
import { pgbenchTps, startBareServer, type BareServer } from './ceilings';
import { CHROMIUM_PATH, INSTALL_COMMAND } from '../scripts/browser-check';
import { dashboardPhase } from './dashboard-pages';
import { measureClosed, measureOpen, medianRound, type Target } from './measure';
import type { DeadlineStormResult } from './deadline-storm';
import type { WebhookStormResult } from './webhook-storm';
import type { BenchResult, DatabaseResult, PairedRound, PhaseResult, SameRate, TwoSizesResult } from './result-types';
import { recordRun, renderMarkdown } from './report';
import { LIFECYCLES, prepareDataset, READS, type Dataset, type Operation } from './scenarios';
import { estimateSeconds, runSettings, type RunKind } from './settings';
import { measureSlowSpells } from './slow-spells';

const ROOT = path.resolve(__dirname, '..');
const getMilestone = READS['GET milestone']!;
const lifecycle = LIFECYCLES['escrow lifecycle']!;
const USAGE = 'Usage: npm run bench -- [--full | --quick] [--only=postgres|pglite] [--no-dashboard] [--no-storms] [--no-sizes] [--sizes=10000,100000]';
const args = new Set(process.argv.slice(2));
const QUICK = args.has('--quick');
const KIND: RunKind = QUICK ? 'quick' : args.has('--full') ? 'full' : 'default';
const ONLY = [...args].find((a) => a.startsWith('--only='))?.slice('--only='.length);
const SETTINGS = runSettings(KIND);
const { concurrency: CONCURRENCY, readMs: READ_MS, lifecycleMs: LIFECYCLE_MS, openMs: OPEN_MS, openWarmMs: OPEN_WARM_MS, poolSize: POOL_SIZE, pairedMs: PAIRED_MS } = SETTINGS;
/** Until the JIT has settled, so that the figures are a warmed-up server's (bench/README.md, "Why these choices"). */
const WARM_MS = SETTINGS.warmMs;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type Measured = { name: string; operations: string[]; steps: number; make: (worker: number) => Operation };

/** The main phase's operations, the lifecycles first: their writes grow the tables, and the reads' peaks are then measured on the grown ones. */
function mainOperations(data: Dataset): Measured[] {
  return [
    ...Object.entries(LIFECYCLES).map(([name, l]) => ({ name, operations: l.operations, steps: l.operations.length, make: (w: number) => l.run(data, data.pairs[w % data.pairs.length]!) })),
    ...Object.entries(READS).map(([name, make]) => ({ name, operations: [name], steps: 1, make: () => make(data) })),
  ];
}

/**
 * Each operation at half of the peak its closed loops just gave, in rounds that go through the operations in
 * turn (forwards, then backwards), each figure the median round by p99 (bench/noise-rule.ts).
 */
async function halfPeakRounds(target: Target, measured: Measured[], peaks: Map<string, number>): Promise<PhaseResult[]> {
  const rounds = new Map<string, PhaseResult[]>(measured.map((m) => [m.name, []]));
  for (let round = 0; round < SETTINGS.openRounds; round++) {
    for (const m of round % 2 === 0 ? measured : [...measured].reverse()) {
      const rate = peaks.get(m.name)! / 2 / m.steps;
      rounds.get(m.name)!.push(await measureOpen(target, m.name, m.operations, rate, OPEN_MS, m.make, OPEN_WARM_MS));
    }
  }
  return measured.map((m) => medianRound(rounds.get(m.name)!, (p) => p.all.p99));
}

async function benchDatabase(database: 'postgres' | 'pglite') {
  console.log(`\n== ${database} ==`);
  if (database === 'postgres') process.env.TEST_DATABASE_URL = ADMIN_URL;
  else delete process.env.TEST_DATABASE_URL;
  // As `npm start` runs it: on PostgreSQL a request worker per core and a background worker, not the tests' one process.
  const server: TestServer = await startTestServer({ env: { ESCROW_DB_POOL_SIZE: String(POOL_SIZE), ...AS_DEPLOYED } });
  // Each process's own peak over every phase: the memory targets are per process (bench/README.md, "Where the memory goes").
  const stopProcessSampling = samplePeakRssByProcess(server.process.pid as number);
  let peakRssByProcessMb: Record<string, number> | undefined;
  try {
    const result = await measureDatabase(database, server);
    peakRssByProcessMb = stopProcessSampling();
    return { ...result, peakRssByProcessMb };
  } finally {
    if (!peakRssByProcessMb) stopProcessSampling();
    await server.stop();
  }
}

/** The main phases on one database; on PostgreSQL also the bare server's ceilings beside them. */
async function measureDatabase(database: 'postgres' | 'pglite', server: TestServer): Promise<DatabaseResult> {
  const data: Dataset = await prepareDataset(server.baseUrl, server.operatorKey, 32);
  const target: Target = { pid: server.process.pid as number, baseUrl: server.baseUrl, key: data.key, output: server.output };
  const measured = mainOperations(data);
  // Warm the JIT and the pool on every measured operation before anything is measured: the numbers are
  // for a server that has been up a while, not for its first seconds.
  for (const m of measured) await measureClosed(target, 'warm-up', [], 8, WARM_MS / measured.length, m.make);

  // Closed loops, then the open loops at half of the peak they gave, on tables grown as they will be then
  // (bench/README.md, "Why these choices").
  const phases: PhaseResult[] = [];
  const peaks = new Map<string, number>();
  for (const m of measured) {
    for (const c of CONCURRENCY) {
      const result = await measureClosed(target, m.name, m.operations, c, m.steps > 1 ? LIFECYCLE_MS : READ_MS, m.make);
      phases.push(result);
      if (c === 8 || c === 32) peaks.set(m.name, Math.max(peaks.get(m.name) ?? 0, result.operationsPerSecond));
    }
  }
  const halfPeak = await halfPeakRounds(target, measured, peaks);
  if (database !== 'postgres') return { phases, halfPeak, bare: [] };

  // This server's own floor: Next.js answering its emptiest route (no query, no auth) at c=32.
  const health: Operation = async (api, recorder, at) => {
    await recorder.time('empty route', at, async () => {
      const reply = await api.request('GET', '/api/health');
      if (reply.status !== 200) throw new Error(`GET /api/health → ${reply.status}`);
    });
  };
  const emptyRoute = await measureClosed(target, 'empty route', ['empty route'], 32, READ_MS, () => health);
  const bareServers = [await startBareServer(server.databaseUrl as string, POOL_SIZE, 1), await startBareServer(server.databaseUrl as string, POOL_SIZE, os.availableParallelism())];
  try {
    const [single, cluster] = bareServers.map((b): Target => ({ pid: b.process.pid as number, baseUrl: b.baseUrl, key: data.key })) as [Target, Target];
    for (const bareTarget of [single, cluster]) {
      await measureClosed(bareTarget, 'warm-up', [], 8, WARM_MS / 6, () => getMilestone(data));
      await measureClosed(bareTarget, 'warm-up', [], 8, WARM_MS / 6, (w) => lifecycle.run(data, data.pairs[w % data.pairs.length]!));
    }
    // The read ceiling as it has always been: one process.
    const bare: PhaseResult[] = [];
    for (const c of CONCURRENCY.filter((c) => c === 8 || c === 32)) bare.push(await measureClosed(single, 'bare GET milestone', ['GET milestone'], c, READ_MS, () => getMilestone(data)));
    // The machine's own floor for the latency target: the bare server at half of its peak, just measured.
    const barePeak = Math.max(...bare.map((p) => p.operationsPerSecond));
    const bareHalfPeak = await measureOpen(single, 'bare GET milestone', ['GET milestone'], barePeak / 2, OPEN_MS, () => getMilestone(data), OPEN_WARM_MS);
    const sameRate = await measureSameRate(target, single, barePeak / 2, data);
    const paired = await measurePaired(target, { single, cluster }, bareServers[1]!, data);
    return { phases, halfPeak, bare, bareHalfPeak, sameRate, emptyRoute, paired };
  } finally {
    for (const b of bareServers) await b.stop();
  }
}

/** `first` then `second` in even rounds, the other way round in odd ones, so that neither always follows the other. */
async function inTurn<T>(round: number, first: () => Promise<T>, second: () => Promise<T>): Promise<[T, T]> {
  if (round % 2 === 0) {
    const a = await first();
    return [a, await second()];
  }
  const b = await second();
  return [await first(), b];
}

/**
 * GET milestone on this server and on the bare one at one rate, the bare server's half of peak, in
 * alternating rounds. At half of its own peak each loads the machine differently (this server runs a
 * worker per core, the bare one a single process), so only one rate says whose tail is longer.
 */
async function measureSameRate(target: Target, bareTarget: Target, rate: number, data: Dataset): Promise<SameRate> {
  const appP99: number[] = [];
  const bareP99: number[] = [];
  for (let round = 0; round < SETTINGS.openRounds; round++) {
    const [app, bare] = await inTurn(
      round,
      () => measureOpen(target, 'GET milestone (same rate)', ['GET milestone'], rate, OPEN_MS, () => getMilestone(data), OPEN_WARM_MS),
      () => measureOpen(bareTarget, 'bare GET milestone (same rate)', ['GET milestone'], rate, OPEN_MS, () => getMilestone(data), OPEN_WARM_MS),
    );
    appP99.push(app.all.p99);
    bareP99.push(bare.all.p99);
  }
  return { rate: Math.round(rate * 10) / 10, appP99, bareP99 };
}

/**
 * The two throughput targets are ratios to a ceiling, and the machine's speed drifts over minutes
 * (bench/README.md, "Why these choices"), so each is measured in alternating rounds at c=32, each figure
 * beside its ceiling: GET milestone here and on the bare server (one process), the lifecycle here and on
 * the bare server in one process and in one per core.
 */
async function measurePaired(target: Target, bare: { single: Target; cluster: Target }, cluster: BareServer, data: Dataset): Promise<PairedRound[]> {
  const run = (w: number) => lifecycle.run(data, data.pairs[w % data.pairs.length]!);
  const lifecycleOn = (t: Target, name: string) => () => measureClosed(t, name, lifecycle.operations, 32, PAIRED_MS, run);
  const rounds: PairedRound[] = [];
  for (let round = 0; round < SETTINGS.pairedRounds; round++) {
    const [app, bareRead] = await inTurn(
      round,
      () => measureClosed(target, 'GET milestone (paired)', ['GET milestone'], 32, PAIRED_MS, () => getMilestone(data)),
      () => measureClosed(bare.single, 'bare GET milestone (paired)', ['GET milestone'], 32, PAIRED_MS, () => getMilestone(data)),
    );
    const [appLifecycle, [bareSingle, bareCluster]] = await inTurn<PhaseResult | PhaseResult[]>(round, lifecycleOn(target, 'escrow lifecycle (paired)'), async () => [
      await lifecycleOn(bare.single, 'bare lifecycle, 1 process (paired)')(),
      await lifecycleOn(bare.cluster, `bare lifecycle, ${cluster.workers} processes (paired)`)(),
    ]) as [PhaseResult, PhaseResult[]];
    const phases = [app, bareRead, appLifecycle, bareSingle!, bareCluster!];
    rounds.push({
      getMilestone: app.operationsPerSecond,
      bareGetMilestone: bareRead.operationsPerSecond,
      lifecycle: appLifecycle.operationsPerSecond,
      bareLifecycle: { oneProcess: bareSingle!.operationsPerSecond, perCore: bareCluster!.operationsPerSecond, processes: cluster.workers },
      errors: phases.reduce((n, p) => n + p.errors, 0),
      firstErrors: phases.flatMap((p) => p.firstErrors).slice(0, 5),
    });
  }
  return rounds;
}

async function benchDashboard() {
  console.log('\n== dashboard ==');
  process.env.TEST_DATABASE_URL = ADMIN_URL;
  const encryptionKey = newEncryptionKey();
  const server = await startTestServer({ seedDemo: true, env: { ESCROW_ENCRYPTION_KEY: encryptionKey } });
  try {
    const phase = await dashboardPhase({ baseUrl: server.baseUrl, databaseUrl: server.databaseUrl as string, output: server.output }, encryptionKey, SETTINGS.dashboardLcpLoads);
    console.log(`  transaction page LCP: ${phase.lcp.lcpMs.join(', ')} ms (median ${phase.lcp.medianMs})`);
    console.log(`  customer list of ${phase.listLcp.deals} deals LCP: ${phase.listLcp.lcpMs.join(', ')} ms (median ${phase.listLcp.medianMs})`);
    for (const p of phase.pages) console.log(`  ${p.page} (${p.role}): ${p.medianApiCalls} API calls (${p.apiCalls.join(', ')}), API ${p.medianApiMs} ms, document ${p.medianDocumentMs} ms`);
    return phase;
  } finally {
    await server.stop();
  }
}

/** Deadlines waiting on one client when its clock moves past them all, and events waiting for its webhook receiver. */
const STORM_SIZE = SETTINGS.stormSize;
/** GET milestone's rate beside a storm, and before it for the quiet figure. */
const STORM_READS_PER_SECOND = SETTINGS.stormReadsPerSecond;

/**
 * A storm (bench/<name>.ts) run as a process of its own: it reads the server's modules (the runner's scan,
 * the ledger audit, the outbox's writer), which load only under the react-server condition.
 */
function stormProcess<T>(script: string, flags: string[]): T {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--conditions=react-server', path.join(ROOT, 'bench', script), ...flags, `--rate=${STORM_READS_PER_SECOND}`], {
    cwd: ROOT,
    env: { ...process.env, BENCH_DATABASE_URL: ADMIN_URL },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(out.slice(out.indexOf('{'))) as T;
}

/** The two sizes of the two-size phase on PostgreSQL (the big client's transactions); PGlite gets a tenth of each. */
const SIZES = [...args].find((a) => a.startsWith('--sizes='))?.slice('--sizes='.length).split(',').map(Number) ?? SETTINGS.sizes;

/** The two-size phase (bench/two-sizes.ts) on one database, as a process of its own like the storms. */
function twoSizesPhase(database: 'postgres' | 'pglite'): TwoSizesResult {
  const sizes = database === 'postgres' ? SIZES : SIZES.map((n) => Math.max(1, Math.round(n / 10)));
  const out = path.join(os.tmpdir(), `escrow-two-sizes-${process.pid}-${database}.json`);
  const flags = [`--database=${database}`, `--sizes=${sizes.join(',')}`, `--out=${out}`, ...(QUICK ? ['--quick'] : []), ...(args.has('--no-dashboard') ? ['--no-lcp'] : [])];
  execFileSync(process.execPath, ['--import', 'tsx', '--conditions=react-server', path.join(ROOT, 'bench', 'two-sizes.ts'), ...flags], {
    cwd: ROOT,
    env: { ...process.env, BENCH_DATABASE_URL: ADMIN_URL },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    return JSON.parse(fs.readFileSync(out, 'utf8')) as TwoSizesResult;
  } finally {
    fs.rmSync(out, { force: true });
  }
}

function deadlineStorm(): DeadlineStormResult {
  console.log(`\n== deadline storm: ${STORM_SIZE} lapses ==`);
  const result = stormProcess<DeadlineStormResult>('deadline-storm.ts', [`--transactions=${STORM_SIZE}`]);
  console.log(`  ${result.lapsesPerSecond} lapses/s; GET milestone p99 ${result.quiet.p99} ms quiet, ${result.storm.p99} ms in the storm`);
  return result;
}

function webhookStorm(): WebhookStormResult {
  console.log(`\n== webhook storm: ${STORM_SIZE} events ==`);
  const result = stormProcess<WebhookStormResult>('webhook-storm.ts', [`--events=${STORM_SIZE}`]);
  console.log(`  ${result.deliveriesPerSecond} deliveries/s; GET milestone p99 ${result.quiet.p99} ms quiet, ${result.storm.p99} ms in the storm`);
  return result;
}

/** The arguments that are none of the flags above: a mistyped flag stops the run rather than being ignored by it. */
function unknownFlags(): string[] {
  const plain = ['--quick', '--full', '--no-dashboard', '--no-storms', '--no-sizes'];
  return [...args].filter((a) => !plain.includes(a) && !/^--only=(postgres|pglite)$/.test(a) && !/^--sizes=\d+,\d+$/.test(a));
}

/** Seconds since `from`, to a tenth. */
const since = (from: number) => Math.round((performance.now() - from) / 100) / 10;

async function main() {
  if (args.has('--help')) {
    console.log(USAGE);
    return;
  }
  const unknown = unknownFlags();
  if (unknown.length > 0) throw new Error(`Not a flag of the bench: ${unknown.join(' ')}\n${USAGE}`);
  if (QUICK && args.has('--full')) throw new Error(`--quick and --full do not go together\n${USAGE}`);
  const startedAt = new Date();
  // The dashboard phase comes last: a missing browser must stop the run before its minutes of load, not after.
  if (!args.has('--no-dashboard') && !fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`The dashboard phase needs Chromium at ${CHROMIUM_PATH}: ${INSTALL_COMMAND}, or run with --no-dashboard.`);
  }
  const parts = { postgres: ONLY !== 'pglite', pglite: ONLY !== 'postgres', storms: !args.has('--no-storms'), sizes: !args.has('--no-sizes'), dashboard: !args.has('--no-dashboard') };
  const estimate = estimateSeconds({ ...SETTINGS, sizes: SIZES }, parts);
  const total = estimate.reduce((sum, p) => sum + p.seconds, 0);
  console.log(`A ${KIND} run: about ${Math.round(total / 60)} min after the build (${estimate.map((p) => `${p.phase} ${Math.round(p.seconds / 6) / 10}`).join(', ')} min).`);
  const elapsed: Array<{ phase: string; seconds: number }> = [];
  const timed = async <T>(phase: string, body: () => Promise<T> | T): Promise<T> => {
    const from = performance.now();
    try {
      return await body();
    } finally {
      elapsed.push({ phase, seconds: since(from) });
    }
  };
  await timed('build', () => ensureBuild());
  const firstLoad = firstLoadJs(ROOT);
  console.log(`The machine's own slow spells (${SETTINGS.slowSpellSeconds} s of busy loops, nothing else of ours running)…`);
  const slowSpells = await timed('slow spells', () => measureSlowSpells(SETTINGS.slowSpellSeconds));
  console.log(`  ${JSON.stringify(slowSpells)}`);
  const result: BenchResult = {
    date: startedAt.toISOString(),
    quick: QUICK,
    kind: KIND,
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '', memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, slowSpells },
    settings: { ...SETTINGS, sizes: SIZES, warmUpSeconds: WARM_MS / 1000, pairedSeconds: PAIRED_MS / 1000 },
    pgbench: null,
    databases: {},
    dashboard: { firstLoadJs: firstLoad.map((r) => ({ route: r.route, gzipKb: Math.round(r.gzipBytes / 102.4) / 10, rawKb: Math.round(r.rawBytes / 1024) })), lcp: null },
    estimate,
    elapsed,
  };
  if (parts.postgres) {
    console.log('pgbench (scale 10, 8 clients)…');
    result.pgbench = await timed('pgbench', () => pgbenchTps(ADMIN_URL, SETTINGS.pgbenchSeconds));
    console.log(`  ${result.pgbench.tps} tps`);
    result.databases.postgres = await timed('postgres', () => benchDatabase('postgres'));
    if (parts.storms) result.storms = await timed('storms', () => ({ deadlines: deadlineStorm(), webhooks: webhookStorm() }));
    if (parts.sizes) result.sizes = { postgres: await timed('two sizes (postgres)', () => twoSizesPhase('postgres')) };
  }
  if (parts.pglite) {
    result.databases.pglite = await timed('pglite', () => benchDatabase('pglite'));
    if (parts.sizes) result.sizes = { ...result.sizes, pglite: await timed('two sizes (pglite)', () => twoSizesPhase('pglite')) };
  }
  if (parts.dashboard) {
    const dashboard = await timed('dashboard', () => benchDashboard());
    result.dashboard = { ...result.dashboard, lcp: dashboard.lcp, pages: dashboard.pages, listLcp: dashboard.listLcp };
  }

  const stamp = startedAt.toISOString().replace(/[:]/g, '-').replace(/\.\d+Z$/, 'Z');
  const dir = path.join(ROOT, 'bench/results');
  const rawDir = path.join(ROOT, 'bench/raw');
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(rawDir, { recursive: true });
  const markdown = renderMarkdown(result);
  fs.writeFileSync(path.join(rawDir, `${stamp}.json`), `${JSON.stringify(result, null, 2)}\n`);
  const written: string[] = [];
  if (KIND !== 'quick' && !ONLY) {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    recordRun(dir, result, markdown, commit);
    written.push(KIND === 'full' ? 'bench/results/latest.md, a line of bench/results/history.md' : 'a line of bench/results/history.md');
  }
  if (KIND !== 'full' || ONLY) {
    fs.writeFileSync(path.join(rawDir, `${stamp}.md`), markdown);
    written.push(`bench/raw/${stamp}.md`);
  }
  console.log(`\n${markdown}\nWritten: ${written.join(', ')} and bench/raw/${stamp}.json`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
