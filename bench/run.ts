/**
 * Usage: npm run bench -- [--quick] [--only=postgres|pglite] [--no-dashboard] [--no-storms] [--no-sizes] [--sizes=10000,1000000]
 *
 * The production build driven over HTTP from this process, on PostgreSQL and on PGlite, beside this
 * machine's ceilings (pgbench, a bare node:http + pg server), the storms, the two-size phase and the
 * dashboard's weight and LCP; bench/README.md says what each phase measures and what the flags skip.
 * A full run (no --quick, no --only) writes bench/results/latest.md and a line of bench/results/history.md;
 * every run writes its raw figures to bench/raw/<date>.json and, unless full, its report to bench/raw/<date>.md.
 * PostgreSQL: BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuild } from '../scripts/ensure-build';
import { newEncryptionKey } from '../e2e/support/sealed-secrets';
import { startTestServer, type TestServer } from '../e2e/support/test-server';
import { firstLoadJs } from './bundle-size';
import { pgbenchTps, preparePgbench, startBareServer, type Pgbench } from './ceilings';
import { CHROMIUM_PATH, INSTALL_COMMAND } from '../scripts/browser-check';
import { dashboardPhase } from './dashboard-pages';
import { measureClosed, measureOpen, type Target } from './measure';
import type { DeadlineStormResult } from './deadline-storm';
import type { WebhookStormResult } from './webhook-storm';
import type { BenchResult, PairedRound, PhaseResult, SameRate, TwoSizesResult } from './result-types';
import { recordFullRun, renderMarkdown } from './report';
import { LIFECYCLES, prepareDataset, READS, type Dataset, type Operation } from './scenarios';
import { measureSlowSpells } from './slow-spells';

const ROOT = path.resolve(__dirname, '..');
const getMilestone = READS['GET milestone']!;
const USAGE = 'Usage: npm run bench -- [--quick] [--only=postgres|pglite] [--no-dashboard] [--no-storms] [--no-sizes] [--sizes=10000,1000000]';
const args = new Set(process.argv.slice(2));
const QUICK = args.has('--quick');
const ONLY = [...args].find((a) => a.startsWith('--only='))?.slice('--only='.length);
const CONCURRENCY = [1, 8, 32, 128];
const READ_MS = QUICK ? 1500 : 6000;
const LIFECYCLE_MS = QUICK ? 2500 : 10_000;
const HALF_PEAK_MS = QUICK ? 2000 : 8000;
const REPEAK_MS = QUICK ? 1000 : 4000;
const OPEN_WARM_MS = QUICK ? 1000 : 2000;
/** Until the JIT has settled, so that the figures are a warmed-up server's (bench/README.md, "Why these choices"). */
const WARM_MS = QUICK ? 5000 : 30_000;
const POOL_SIZE = 10;
const PAIRED_ROUNDS = 3;
const SAME_RATE_ROUNDS = QUICK ? 1 : 3;
/** Seconds of busy loops on the idle machine before the run (bench/slow-spells.ts). */
const SLOW_SPELL_SECONDS = QUICK ? 3 : 10;
const PAIRED_MS = QUICK ? 2000 : 5000;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function benchDatabase(database: 'postgres' | 'pglite') {
  console.log(`\n== ${database} ==`);
  if (database === 'postgres') process.env.TEST_DATABASE_URL = ADMIN_URL;
  else delete process.env.TEST_DATABASE_URL;
  const server: TestServer = await startTestServer({ env: { ESCROW_DB_POOL_SIZE: String(POOL_SIZE) } });
  try {
    const data: Dataset = await prepareDataset(server.baseUrl, server.operatorKey, Math.max(...CONCURRENCY));
    const target: Target = { pid: server.process.pid as number, baseUrl: server.baseUrl, key: data.key, output: server.output };
    const phases: PhaseResult[] = [];
    // Warm the JIT and the pool on every measured operation before anything is measured: the numbers are
    // for a server that has been up a while, not for its first seconds.
    const warmUps: Array<(worker: number) => Operation> = [
      ...Object.values(READS).map((make) => () => make(data)),
      ...Object.values(LIFECYCLES).map((lifecycle) => (w: number) => lifecycle.run(data, data.pairs[w % data.pairs.length]!)),
    ];
    for (const make of warmUps) await measureClosed(target, 'warm-up', [], 8, WARM_MS / warmUps.length, make);

    for (const [name, make] of Object.entries(READS)) {
      for (const c of CONCURRENCY) phases.push(await measureClosed(target, name, [name], c, READ_MS, () => make(data)));
    }
    for (const [name, lifecycle] of Object.entries(LIFECYCLES)) {
      for (const c of CONCURRENCY) phases.push(await measureClosed(target, name, lifecycle.operations, c, LIFECYCLE_MS, (w) => lifecycle.run(data, data.pairs[w % data.pairs.length]!)));
    }

    // Latency at half of each operation's peak throughput, as an open loop. The peak is measured again
    // just before, in the state the server is in then: the write phases have grown the tables since the
    // first measurement, so the first peak overstates what the server sustains by now (bench/README.md, "Why these choices").
    const halfPeak: PhaseResult[] = [];
    const peakNow = async (name: string, operations: string[], make: (worker: number) => Operation) => {
      let best = 0;
      for (const c of [8, 32]) best = Math.max(best, (await measureClosed(target, `${name} (peak now)`, operations, c, REPEAK_MS, make)).operationsPerSecond);
      return best;
    };
    for (const [name, make] of Object.entries(READS)) {
      const rate = (await peakNow(name, [name], () => make(data))) / 2;
      halfPeak.push(await measureOpen(target, name, [name], rate, HALF_PEAK_MS, () => make(data), OPEN_WARM_MS));
    }
    for (const [name, lifecycle] of Object.entries(LIFECYCLES)) {
      const chainsPerSecond = (await peakNow(name, lifecycle.operations, (w) => lifecycle.run(data, data.pairs[w % data.pairs.length]!))) / 2 / lifecycle.operations.length;
      halfPeak.push(await measureOpen(target, name, lifecycle.operations, chainsPerSecond, HALF_PEAK_MS, (i) => lifecycle.run(data, data.pairs[i % data.pairs.length]!), OPEN_WARM_MS));
    }
    const bare: PhaseResult[] = [];
    let emptyRoute: PhaseResult | undefined;
    let paired: PairedRound[] | undefined;
    let bareHalfPeak: PhaseResult | undefined;
    let sameRate: SameRate | undefined;
    if (database === 'postgres') {
      // This server's own floor: Next.js answering its emptiest route (no query, no auth) at c=32.
      const health: Operation = async (api, recorder, at) => {
        await recorder.time('empty route', at, async () => {
          const reply = await api.request('GET', '/api/health');
          if (reply.status !== 200) throw new Error(`GET /api/health → ${reply.status}`);
        });
      };
      emptyRoute = await measureClosed(target, 'empty route', ['empty route'], 32, READ_MS, () => health);
      const bareServer = await startBareServer(server.databaseUrl as string, POOL_SIZE);
      const bareTarget: Target = { pid: bareServer.process.pid as number, baseUrl: bareServer.baseUrl, key: data.key };
      const pgbench = await preparePgbench(ADMIN_URL);
      try {
        await measureClosed(bareTarget, 'warm-up', [], 8, WARM_MS / 3, () => getMilestone(data));
        for (const c of CONCURRENCY) bare.push(await measureClosed(bareTarget, 'bare GET milestone', ['GET milestone'], c, READ_MS, () => getMilestone(data)));
        // The machine's own floor for the latency target: the bare server at half of its peak, just measured.
        const barePeak = Math.max(...bare.filter((p) => p.concurrency === 8 || p.concurrency === 32).map((p) => p.operationsPerSecond));
        bareHalfPeak = await measureOpen(bareTarget, 'bare GET milestone', ['GET milestone'], barePeak / 2, HALF_PEAK_MS, () => getMilestone(data), OPEN_WARM_MS);
        sameRate = await measureSameRate(target, bareTarget, barePeak / 2, data);
        paired = await measurePaired(target, bareTarget, pgbench, data);
      } finally {
        await pgbench.drop();
        await bareServer.stop();
      }
    }
    return { phases, halfPeak, bare, bareHalfPeak, sameRate, emptyRoute, paired };
  } finally {
    await server.stop();
  }
}

/**
 * GET milestone on this server and on the bare one at one rate, the bare server's half of peak, in
 * alternating rounds. At half of its own peak each loads the machine differently (this server runs a
 * worker per core, the bare one a single process), so only one rate says whose tail is longer.
 */
async function measureSameRate(target: Target, bareTarget: Target, rate: number, data: Dataset): Promise<SameRate> {
  const appP99: number[] = [];
  const bareP99: number[] = [];
  for (let round = 0; round < SAME_RATE_ROUNDS; round++) {
    const app = () => measureOpen(target, 'GET milestone (same rate)', ['GET milestone'], rate, HALF_PEAK_MS, () => getMilestone(data), OPEN_WARM_MS);
    const bare = () => measureOpen(bareTarget, 'bare GET milestone (same rate)', ['GET milestone'], rate, HALF_PEAK_MS, () => getMilestone(data), OPEN_WARM_MS);
    // Alternating which goes first, so that neither always follows the other.
    if (round % 2 === 0) {
      appP99.push((await app()).all.p99);
      bareP99.push((await bare()).all.p99);
    } else {
      bareP99.push((await bare()).all.p99);
      appP99.push((await app()).all.p99);
    }
  }
  return { rate: Math.round(rate * 10) / 10, appP99, bareP99 };
}

/**
 * The two throughput targets are ratios to a ceiling, and the machine's speed drifts over minutes
 * (bench/README.md, "Why these choices"), so each ratio is measured in alternating rounds, each figure
 * beside its ceiling: GET milestone next to the bare server's, lifecycle operations next to a pgbench
 * run, all at c=32 (pgbench: its 8 clients).
 */
async function measurePaired(target: Target, bareTarget: Target, pgbench: Pgbench, data: Dataset): Promise<PairedRound[]> {
  const lifecycle = LIFECYCLES['escrow lifecycle']!;
  const rounds: PairedRound[] = [];
  for (let round = 1; round <= PAIRED_ROUNDS; round++) {
    const app = await measureClosed(target, 'GET milestone (paired)', ['GET milestone'], 32, PAIRED_MS, () => getMilestone(data));
    const bare = await measureClosed(bareTarget, 'bare GET milestone (paired)', ['GET milestone'], 32, PAIRED_MS, () => getMilestone(data));
    const lifecycles = await measureClosed(target, 'escrow lifecycle (paired)', lifecycle.operations, 32, PAIRED_MS, (w) => lifecycle.run(data, data.pairs[w % data.pairs.length]!));
    const tps = await pgbench.run(PAIRED_MS / 1000);
    console.log(`  paired round ${round}: pgbench ${tps.toFixed(0)} tps`);
    rounds.push({ getMilestone: app.operationsPerSecond, bareGetMilestone: bare.operationsPerSecond, lifecycle: lifecycles.operationsPerSecond, pgbenchTps: Math.round(tps), errors: app.errors + bare.errors + lifecycles.errors });
  }
  return rounds;
}

async function benchDashboard() {
  console.log('\n== dashboard ==');
  process.env.TEST_DATABASE_URL = ADMIN_URL;
  const encryptionKey = newEncryptionKey();
  const server = await startTestServer({ seedDemo: true, env: { ESCROW_ENCRYPTION_KEY: encryptionKey } });
  try {
    const phase = await dashboardPhase({ baseUrl: server.baseUrl, databaseUrl: server.databaseUrl as string, output: server.output }, encryptionKey, QUICK ? 2 : 5);
    console.log(`  transaction page LCP: ${phase.lcp.lcpMs.join(', ')} ms (median ${phase.lcp.medianMs})`);
    console.log(`  customer list of ${phase.listLcp.deals} deals LCP: ${phase.listLcp.lcpMs.join(', ')} ms (median ${phase.listLcp.medianMs})`);
    for (const p of phase.pages) console.log(`  ${p.page} (${p.role}): ${p.medianApiCalls} API calls (${p.apiCalls.join(', ')}), API ${p.medianApiMs} ms, document ${p.medianDocumentMs} ms`);
    return phase.lcp;
  } finally {
    await server.stop();
  }
}

/** Deadlines waiting on one client when its clock moves past them all; a twentieth with --quick. */
const STORM_DEADLINES = QUICK ? 5000 : 100_000;
/** Events waiting for one client's webhook receiver when it comes back; a twentieth with --quick. */
const STORM_EVENTS = QUICK ? 5000 : 100_000;
/** GET milestone's rate beside a storm, and before it for the quiet figure. */
const STORM_READS_PER_SECOND = 50;

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
const SIZES = [...args].find((a) => a.startsWith('--sizes='))?.slice('--sizes='.length).split(',').map(Number) ?? (QUICK ? [2_000, 20_000] : [10_000, 1_000_000]);

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
  console.log(`\n== deadline storm: ${STORM_DEADLINES} lapses ==`);
  const result = stormProcess<DeadlineStormResult>('deadline-storm.ts', [`--transactions=${STORM_DEADLINES}`]);
  console.log(`  ${result.lapsesPerSecond} lapses/s; GET milestone p99 ${result.quiet.p99} ms quiet, ${result.storm.p99} ms in the storm`);
  return result;
}

function webhookStorm(): WebhookStormResult {
  console.log(`\n== webhook storm: ${STORM_EVENTS} events ==`);
  const result = stormProcess<WebhookStormResult>('webhook-storm.ts', [`--events=${STORM_EVENTS}`]);
  console.log(`  ${result.deliveriesPerSecond} deliveries/s; GET milestone p99 ${result.quiet.p99} ms quiet, ${result.storm.p99} ms in the storm`);
  return result;
}

/** The arguments that are none of the flags above: a mistyped flag stops the run rather than being ignored by it. */
function unknownFlags(): string[] {
  const plain = ['--quick', '--no-dashboard', '--no-storms', '--no-sizes'];
  return [...args].filter((a) => !plain.includes(a) && !/^--only=(postgres|pglite)$/.test(a) && !/^--sizes=\d+,\d+$/.test(a));
}

async function main() {
  if (args.has('--help')) {
    console.log(USAGE);
    return;
  }
  const unknown = unknownFlags();
  if (unknown.length > 0) throw new Error(`Not a flag of the bench: ${unknown.join(' ')}\n${USAGE}`);
  const startedAt = new Date();
  // The dashboard phase comes last: a missing browser must stop the run before its minutes of load, not after.
  if (!args.has('--no-dashboard') && !fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`The dashboard phase needs Chromium at ${CHROMIUM_PATH}: ${INSTALL_COMMAND}, or run with --no-dashboard.`);
  }
  await ensureBuild();
  const firstLoad = firstLoadJs(ROOT);
  console.log(`The machine's own slow spells (${SLOW_SPELL_SECONDS} s of busy loops, nothing else of ours running)…`);
  const slowSpells = await measureSlowSpells(SLOW_SPELL_SECONDS);
  console.log(`  ${JSON.stringify(slowSpells)}`);
  const result: BenchResult = {
    date: startedAt.toISOString(),
    quick: QUICK,
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '', memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, slowSpells },
    settings: { sizes: SIZES, concurrency: CONCURRENCY, warmUpSeconds: WARM_MS / 1000, pairedSeconds: PAIRED_MS / 1000, readSeconds: READ_MS / 1000, lifecycleSeconds: LIFECYCLE_MS / 1000, halfPeakSeconds: HALF_PEAK_MS / 1000, poolSize: POOL_SIZE, stormReadsPerSecond: STORM_READS_PER_SECOND },
    pgbench: null,
    databases: {},
    dashboard: { firstLoadJs: firstLoad.map((r) => ({ route: r.route, gzipKb: Math.round(r.gzipBytes / 102.4) / 10, rawKb: Math.round(r.rawBytes / 1024) })), lcp: null },
  };
  if (ONLY !== 'pglite') {
    console.log('pgbench (scale 10, 8 clients)…');
    result.pgbench = await pgbenchTps(ADMIN_URL, QUICK ? 5 : 20);
    console.log(`  ${result.pgbench.tps} tps`);
    result.databases.postgres = await benchDatabase('postgres');
    if (!args.has('--no-storms')) result.storms = { deadlines: deadlineStorm(), webhooks: webhookStorm() };
    if (!args.has('--no-sizes')) result.sizes = { postgres: twoSizesPhase('postgres') };
  }
  if (ONLY !== 'postgres') {
    result.databases.pglite = await benchDatabase('pglite');
    if (!args.has('--no-sizes')) result.sizes = { ...result.sizes, pglite: twoSizesPhase('pglite') };
  }
  if (!args.has('--no-dashboard')) result.dashboard.lcp = await benchDashboard();

  const stamp = startedAt.toISOString().replace(/[:]/g, '-').replace(/\.\d+Z$/, 'Z');
  const dir = path.join(ROOT, 'bench/results');
  const rawDir = path.join(ROOT, 'bench/raw');
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(rawDir, { recursive: true });
  const markdown = renderMarkdown(result);
  fs.writeFileSync(path.join(rawDir, `${stamp}.json`), `${JSON.stringify(result, null, 2)}\n`);
  let written: string;
  if (!QUICK && !ONLY) {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    recordFullRun(dir, result, markdown, commit);
    written = 'bench/results/latest.md, a line of bench/results/history.md';
  } else {
    fs.writeFileSync(path.join(rawDir, `${stamp}.md`), markdown);
    written = `bench/raw/${stamp}.md`;
  }
  console.log(`\n${markdown}\nWritten: ${written} and bench/raw/${stamp}.json`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
