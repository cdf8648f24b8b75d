/** The benchmark's targets, its Markdown report and its record (bench/results). */
import fs from 'node:fs';
import path from 'node:path';
import { enoughRounds, equalWithinNoise, judgedFigure, latencyRatioWithin, latencyWithin, MIN_ROUNDS } from './noise-rule';
import type { BenchResult, DatabaseResult, PairedRound, PhaseResult, SizeResult, TwoSizesResult } from './result-types';

type Target = { target: string; measured: string; met: boolean };

const LIFECYCLE = 'escrow lifecycle';
const READ_OPS = ['GET milestone', 'list users page', 'list transactions'];
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const pct1 = (x: number) => `${(x * 100).toFixed(1)}%`;
/** The throughput targets: this server's operations per second at c=32 as a share of the bare server's doing the same. */
const SHARE_OF_BARE = 0.6;
/** How many rounds a latency figure is the median of, where fewer than the rule asks (a --quick run). */
const roundsNote = (rounds: readonly number[] | undefined) => (rounds && !enoughRounds(rounds) ? ` (${rounds.length} rounds, fewer than ${MIN_ROUNDS})` : '');
const at = (db: DatabaseResult | undefined, name: string, c: number) => db?.phases.find((p) => p.name === name && p.concurrency === c);
/** The open loops at half of peak: the server's, then the bare server's. */
const openLoops = (db: DatabaseResult) => [...db.halfPeak, ...(db.bareHalfPeak ? [db.bareHalfPeak] : [])];
const peak = (phases: PhaseResult[] | undefined, name: string) => Math.max(0, ...(phases ?? []).filter((p) => p.name === name).map((p) => p.operationsPerSecond));

export function targets(r: BenchResult): Target[] {
  const out: Target[] = [];
  const pgDb = r.databases.postgres;
  const paired = pgDb?.paired;
  if (paired?.length) {
    // Ratios of sums over the alternating rounds: each ceiling was measured in the same minute as its figure.
    const sum = (pick: (round: PairedRound) => number) => Math.round(paired.reduce((total, round) => total + pick(round), 0) * 10) / 10;
    const lifecycle = sum((p) => p.lifecycle);
    const ceiling = bareLifecycleCeiling(paired);
    if (ceiling) {
      out.push({
        target: `Lifecycle operations/s at concurrency 32 ≥ ${pct(SHARE_OF_BARE)} of the bare write server (paired rounds)`,
        measured: `${lifecycle} / ${ceiling.sum} op/s = ${pct(lifecycle / ceiling.sum)} (the bare server ${ceiling.mode}, the better of its two)`,
        met: lifecycle / ceiling.sum >= SHARE_OF_BARE,
      });
    }
    const app = sum((p) => p.getMilestone);
    const bare = sum((p) => p.bareGetMilestone);
    out.push({ target: `GET milestone throughput ≥ ${pct(SHARE_OF_BARE)} of the bare node:http + pg server (paired rounds, c=32)`, measured: `${app} / ${bare} req/s = ${pct(app / bare)}`, met: app / bare >= SHARE_OF_BARE });
  } else if (pgDb && pgDb.bare.length) {
    const app = peak(pgDb.phases, 'GET milestone');
    const bare = peak(pgDb.bare, 'bare GET milestone');
    out.push({ target: `GET milestone throughput ≥ ${pct(SHARE_OF_BARE)} of the bare node:http + pg server`, measured: `${app} / ${bare} req/s = ${pct(app / bare)}`, met: app / bare >= SHARE_OF_BARE });
  }
  for (const [name, db] of Object.entries(r.databases)) {
    if (!db) continue;
    const reads = db.halfPeak.filter((p) => READ_OPS.includes(p.name));
    const writes = db.halfPeak.filter((p) => !READ_OPS.includes(p.name));
    // Each figure is its median round by p99 (bench/noise-rule.ts); results from before the rounds had one window.
    const p99 = (p: PhaseResult) => (p.rounds ? judgedFigure(p.rounds) : p.all.p99);
    const floor = db.bareHalfPeak ? ` (the bare server at half of its peak: ${db.bareHalfPeak.all.p99} ms)` : '';
    out.push({
      target: `${name}: at half of peak, p99 ≤ 50 ms for reads (median of ${MIN_ROUNDS} rounds)`,
      measured: `${reads.map((p) => `${p.name} ${p99(p)} ms`).join(', ')}${floor}${roundsNote(reads[0]?.rounds)}`,
      met: reads.every((p) => latencyWithin(p99(p), 50)),
    });
    out.push({
      target: `${name}: at half of peak, p99 ≤ 100 ms for money-moving writes (median of ${MIN_ROUNDS} rounds)`,
      measured: `${writes.map((p) => `${p.name} ${p99(p)} ms`).join(', ')}${roundsNote(writes[0]?.rounds)}`,
      met: writes.every((p) => latencyWithin(p99(p), 100)),
    });
  }
  const allPhases = Object.values(r.databases).flatMap((db) => (db ? [...db.phases, ...openLoops(db), ...db.bare] : []));
  const pairedErrors = Object.values(r.databases).reduce((sum, db) => sum + (db?.paired ?? []).reduce((n, round) => n + round.errors, 0), 0);
  const errors = allPhases.reduce((sum, p) => sum + p.errors, 0) + pairedErrors;
  out.push({ target: '0 errors', measured: `${errors} errors in ${allPhases.reduce((s, p) => s + p.all.count, 0)} requests (and the paired rounds)`, met: errors === 0 });
  if (r.databases.pglite && pgDb) {
    const lite = peak(r.databases.pglite.phases, LIFECYCLE);
    const pgPeak = peak(pgDb.phases, LIFECYCLE);
    out.push({ target: 'PGlite lifecycle throughput ≥ 25% of PostgreSQL’s (peak)', measured: `${lite} / ${pgPeak} op/s = ${pct(lite / pgPeak)}`, met: lite / pgPeak >= 0.25 });
  }
  out.push(...memoryTargets(r));
  const heaviest = [...r.dashboard.firstLoadJs].sort((a, b) => b.gzipKb - a.gzipKb)[0];
  if (heaviest) out.push({ target: 'Every dashboard route ≤ 150 kB first-load JS (gzip)', measured: `heaviest ${heaviest.route} ${heaviest.gzipKb} kB`, met: heaviest.gzipKb <= 150 });
  if (r.dashboard.lcp) {
    out.push({ target: 'Transaction page LCP ≤ 1 s (20 milestones, 200 log lines)', measured: `median ${r.dashboard.lcp.medianMs} ms of ${r.dashboard.lcp.lcpMs.join(', ')}`, met: r.dashboard.lcp.medianMs <= 1000 });
  }
  if (r.dashboard.pages?.length) {
    const most = Math.max(...r.dashboard.pages.flatMap((p) => p.apiCalls));
    const over = r.dashboard.pages.filter((p) => Math.max(...p.apiCalls) > 2).map((p) => `${p.page} ${Math.max(...p.apiCalls)}`);
    out.push({ target: 'Every dashboard page load ≤ 2 API calls (the ten busiest pages, every load)', measured: over.length ? `over: ${over.join(', ')}` : `at most ${most}`, met: over.length === 0 });
  }
  if (r.dashboard.listLcp) {
    const list = r.dashboard.listLcp;
    out.push({ target: `Customer’s transactions list LCP ≤ 1 s (${list.deals} deals)`, measured: `median ${list.medianMs} ms of ${list.lcpMs.join(', ')}`, met: list.medianMs <= 1000 });
  }
  for (const [name, result] of Object.entries(r.sizes ?? {})) if (result) out.push(...sizeTargets(name, result));
  const storm = r.storms?.deadlines;
  if (storm) {
    out.push({ target: `Deadline storm (${storm.due} lapses at once): ≥ 1,000 settled per second`, measured: `${storm.lapsesPerSecond}/s (all settled in ${storm.secondsUntilAllSettled ?? 'more than the timeout of'} s)`, met: storm.lapsesPerSecond >= 1000 });
    out.push({ target: 'Deadline storm: none acts twice, the ledger balances', measured: `${storm.actedTwice} twice; ledger ${storm.ledgerBalanced ? 'balanced' : '**unbalanced**'}`, met: storm.actedTwice === 0 && storm.ledgerBalanced });
    out.push(stormLatencyTarget('Deadline storm', storm));
  }
  const hooks = r.storms?.webhooks;
  if (hooks) {
    out.push({ target: `Webhook storm (${hooks.events} events waiting for one receiver): ≥ 1,000 deliveries per second`, measured: `${hooks.deliveriesPerSecond}/s (all delivered in ${hooks.secondsUntilAllDelivered ?? 'more than the timeout of'} s)`, met: hooks.deliveriesPerSecond >= 1000 });
    out.push({
      target: 'Webhook storm: each event once, in per-transaction order',
      measured: `${hooks.received} received, ${hooks.outOfOrder} out of order, ${hooks.duplicates} twice, ${hooks.failed} failed`,
      met: hooks.received === hooks.events && hooks.outOfOrder === 0 && hooks.duplicates === 0 && hooks.failed === 0,
    });
    out.push(stormLatencyTarget('Webhook storm', hooks));
  }
  return out;
}

const EMBEDDED_PEAK_MB = 512;
const WORKER_PEAK_MB = 300;

/**
 * The server fits a small machine: the embedded default (one process) through every PGlite phase, and each of
 * PostgreSQL's request workers on its own, at their peaks.
 */
function memoryTargets(r: BenchResult): Target[] {
  const out: Target[] = [];
  const lite = [...(r.databases.pglite ? [...r.databases.pglite.phases, ...r.databases.pglite.halfPeak] : []), ...(r.sizes?.pglite?.sizes ?? [])];
  if (lite.length) {
    const peakMb = Math.max(...lite.map((p) => p.peakRssMb));
    out.push({ target: `Embedded server (PGlite, one process): peak RSS ≤ ${EMBEDDED_PEAK_MB} MB through the PGlite phases`, measured: `${peakMb} MB`, met: peakMb <= EMBEDDED_PEAK_MB });
  }
  const byProcess = [r.databases.postgres?.peakRssByProcessMb, ...(r.sizes?.postgres?.sizes ?? []).map((s) => s.peakRssByProcessMb)].filter((peaks) => peaks !== undefined);
  const workers = byProcess.flatMap((peaks) => Object.entries(peaks).filter(([role]) => role.startsWith('worker ')));
  if (workers.length) {
    const peakMb = Math.max(...workers.map(([, mb]) => mb));
    out.push({ target: `PostgreSQL: each request worker peaks ≤ ${WORKER_PEAK_MB} MB RSS`, measured: `at most ${peakMb} MB (${byProcess.length} servers, ${workers.length} worker peaks)`, met: peakMb <= WORKER_PEAK_MB });
  }
  return out;
}

/** The lifecycle's ceiling over the paired rounds: the bare write server's better way of running, by its sum. */
function bareLifecycleCeiling(paired: PairedRound[]): { sum: number; mode: string } | undefined {
  if (!paired.every((p) => p.bareLifecycle)) return undefined;
  const round1 = (x: number) => Math.round(x * 10) / 10;
  const one = round1(paired.reduce((n, p) => n + p.bareLifecycle.oneProcess, 0));
  const perCore = round1(paired.reduce((n, p) => n + p.bareLifecycle.perCore, 0));
  const processes = paired[0]!.bareLifecycle.processes;
  return perCore > one ? { sum: perCore, mode: `in ${processes} processes, ${one} op/s in one` } : { sum: one, mode: `in one process, ${perCore} op/s in ${processes}` };
}

/** A storm's API p99 against its quiet value, each the median of its rounds, under the noise rule. */
function stormLatencyTarget(name: string, result: { quiet: { p99: number }; storm: { p99: number }; quietRounds?: number[]; stormRounds?: number[]; errors: number }): Target {
  const quiet = result.quietRounds?.length ? judgedFigure(result.quietRounds) : result.quiet.p99;
  const storm = result.stormRounds?.length ? judgedFigure(result.stormRounds) : result.storm.p99;
  const verdict = latencyRatioWithin(storm, quiet, 2);
  return {
    target: `${name}: API p99 ≤ 2× its quiet value (GET milestone, same rate; medians of rounds)`,
    measured: `${storm} / ${quiet} ms = ${verdict.ratio.toFixed(2)}×${verdict.equal ? ' (equal within noise)' : ''}, ${result.errors} errors${roundsNote(result.stormRounds)}`,
    met: verdict.met && result.errors === 0,
  };
}

const databaseName = (name: string) => (name === 'postgres' ? 'PostgreSQL' : 'PGlite');
const count = (n: number) => n.toLocaleString('en');
const ratio = (big: number, small: number) => (small > 0 ? big / small : Number.POSITIVE_INFINITY);
/** The limits for the big size against the small one, measured in the same run. */
const SIZE_LIMITS = { throughput: 0.8, p99: 1.25, memory: 1.2 };

/** Each operation at the smallest and the biggest size: throughput at c=32, p99 at half of peak, and the ratios. */
function sizeComparison(sizes: SizeResult[]) {
  const small = sizes[0]!;
  const big = sizes[sizes.length - 1]!;
  return small.closed.map((closedSmall) => {
    const pick = (list: PhaseResult[]) => list.find((p) => p.name === closedSmall.name);
    const closedBig = pick(big.closed);
    const openSmall = pick(small.halfPeak);
    const openBig = pick(big.halfPeak);
    const throughput = ratio(closedBig?.operationsPerSecond ?? 0, closedSmall.operationsPerSecond);
    const latency = latencyRatioWithin(openBig?.all.p99 ?? Number.POSITIVE_INFINITY, openSmall?.all.p99 ?? 0, SIZE_LIMITS.p99);
    const errors = [closedSmall, closedBig, openSmall, openBig].reduce((n, p) => n + (p?.errors ?? 0), 0);
    return { name: closedSmall.name, closedSmall, closedBig, openSmall, openBig, throughput, p99: latency.ratio, p99Met: latency.met, p99Equal: latency.equal, errors };
  });
}

function sizeTargets(name: string, result: TwoSizesResult): Target[] {
  if (result.sizes.length < 2) return [];
  const small = result.sizes[0]!;
  const big = result.sizes[result.sizes.length - 1]!;
  const rows = sizeComparison(result.sizes);
  const worst = <T>(list: T[], by: (t: T) => number) => [...list].sort((a, b) => by(a) - by(b))[0];
  const slowest = worst(rows, (r) => r.throughput);
  const latest = worst(rows, (r) => -r.p99);
  const at = `${databaseName(name)} at ${count(big.transactions)} transactions against ${count(small.transactions)}`;
  const out: Target[] = [];
  if (slowest) {
    const under = rows.filter((r) => r.throughput < SIZE_LIMITS.throughput).map((r) => r.name);
    out.push({
      target: `${at}: every throughput ≥ 80% (c=32)`,
      measured: `lowest ${slowest.name} ${slowest.closedBig?.operationsPerSecond} / ${slowest.closedSmall.operationsPerSecond} op/s = ${pct(slowest.throughput)}${under.length ? `; under 80%: ${under.join(', ')}` : ''}`,
      met: under.length === 0,
    });
  }
  if (latest) {
    const over = rows.filter((r) => !r.p99Met).map((r) => r.name);
    out.push({
      target: `${at}: every p99 ≤ 1.25× (open loop at half of peak, medians of rounds)`,
      measured: `highest ${latest.name} ${latest.openBig?.all.p99} / ${latest.openSmall?.all.p99} ms = ${latest.p99.toFixed(2)}×${latest.p99Equal ? ' (equal within noise)' : ''}${over.length ? `; over 1.25×: ${over.join(', ')}` : ''}${roundsNote(latest.openSmall?.rounds)}`,
      met: over.length === 0,
    });
  }
  const memory = ratio(big.peakRssMb, small.peakRssMb);
  out.push({ target: `${at}: peak server memory ≤ 1.2×`, measured: `${big.peakRssMb} / ${small.peakRssMb} MB = ${memory.toFixed(2)}×`, met: memory <= SIZE_LIMITS.memory });
  const unbalanced = result.sizes.filter((s) => !s.generation.auditBalanced).map((s) => count(s.transactions));
  const errors = rows.reduce((n, r) => n + r.errors, 0);
  out.push({
    target: `${databaseName(name)} generated databases: the ledger audit passes; 0 errors in the two-size phase`,
    measured: `audit ${unbalanced.length ? `**unbalanced** at ${unbalanced.join(', ')}` : 'balanced at every size'}; ${errors} errors`,
    met: unbalanced.length === 0 && errors === 0,
  });
  return out;
}

function renderSizes(name: string, result: TwoSizesResult, lines: string[]) {
  if (result.sizes.length === 0) return;
  const small = result.sizes[0]!;
  const big = result.sizes[result.sizes.length - 1]!;
  lines.push('');
  lines.push(`**${databaseName(name)} at two sizes** (bench/two-sizes.ts): the big client of a generated database (99 other clients with a thousandth of its transactions each), throughput in a closed loop at c=32, p99 in an open loop at half of the small size's (one rate for both); both sizes' servers up at once, each figure the median of rounds that alternate between the sizes (the rounds below the table).`);
  lines.push('');
  for (const s of result.sizes) {
    const g = s.generation;
    const lcp = s.lcp ? `; transaction page LCP median ${s.lcp.medianMs} ms (${s.lcp.lcpMs.join(', ')})` : '';
    const byProcess = s.peakRssByProcessMb ? ` (each process at its own peak: ${Object.entries(s.peakRssByProcessMb).map(([role, mb]) => `${role} ${mb}`).join(', ')} MB)` : '';
    lines.push(
      `- ${count(s.transactions)} transactions: generated in ${g.seconds} s, database ${count(Math.round(g.databaseBytes / 1048576))} MB, ledger audit ${g.auditBalanced ? 'balanced' : '**unbalanced**'} (${count(g.ledgerEntries)} entries, ${g.auditSeconds} s); server RSS ${s.startRssMb} MB at start, ${s.peakRssMb} MB at most${byProcess}${lcp}.`,
    );
  }
  lines.push('');
  const [S, B] = [count(small.transactions), count(big.transactions)];
  lines.push(row(['operation', `op/s ${S}`, `op/s ${B}`, 'ratio', `p99 ms ${S}`, `p99 ms ${B}`, 'ratio', `c=32 p99 ms ${S}`, `c=32 p99 ms ${B}`, 'errors', '']));
  lines.push(row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---']));
  for (const r of sizeComparison(result.sizes)) {
    const met = r.throughput >= SIZE_LIMITS.throughput && r.p99Met;
    lines.push(
      row([r.name, r.closedSmall.operationsPerSecond, r.closedBig?.operationsPerSecond ?? '', pct(r.throughput), r.openSmall?.all.p99 ?? '', r.openBig?.all.p99 ?? '', `${r.p99.toFixed(2)}×${r.p99Equal ? ' (=)' : ''}`, r.closedSmall.all.p99, r.closedBig?.all.p99 ?? '', r.errors, met ? 'met' : '**not met**']),
    );
  }
  const rounds = sizeComparison(result.sizes).filter((r) => r.closedSmall.rounds);
  if (rounds.length) {
    lines.push('');
    lines.push(`Rounds (${S} / ${B}): op/s at c=32; p99 ms at half of peak.`);
    lines.push('');
    for (const r of rounds) {
      const list = (p?: PhaseResult) => p?.rounds?.join(', ') ?? '';
      lines.push(`- ${r.name}: op/s ${list(r.closedSmall)} / ${list(r.closedBig)}; p99 ${list(r.openSmall)} / ${list(r.openBig)}`);
    }
  }
}

function row(cells: Array<string | number>) {
  return `| ${cells.join(' | ')} |`;
}

export function renderMarkdown(r: BenchResult): string {
  const lines: string[] = [];
  const spells = r.machine.slowSpells;
  const kind = r.kind ?? (r.quick ? 'quick' : 'full');
  const kindNote = kind === 'quick' ? ' (quick: short phases, not for comparison)' : ` (a ${kind} run)`;
  lines.push(`Benchmark of ${r.date.slice(0, 16).replace('T', ' ')} UTC${kindNote}: ${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memoryGb} GiB, Node ${r.machine.node}; load driven from a separate process over keep-alive HTTP.`);
  lines.push('');
  lines.push(r.sizes ? '**Targets (issues #6, #28 and #60)**' : '**Targets (issues #6 and #60)**');
  lines.push('');
  // The machine's share of slow windows beside the targets it can sway (bench/README.md, "Why these choices").
  if (spells) {
    lines.push(
      `The machine's slow-spell share: ${pct1(spells.slowShare)} of ${spells.windowMs} ms windows did under 60% of the median work (bench/slow-spells.ts, a busy loop per core for ${spells.seconds} s on the idle machine). Latency targets read the median of ${MIN_ROUNDS} alternating rounds, and two figures both under 15 ms count as equal when at most 5 ms apart (bench/noise-rule.ts).`,
    );
    lines.push('');
  }
  lines.push(row(['target', 'measured', '']));
  lines.push(row(['---', '---', '---']));
  for (const t of targets(r)) lines.push(row([t.target, t.measured, t.met ? 'met' : '**not met**']));
  lines.push('');
  if (r.pgbench) lines.push(`The machine's calibration line (no target): pgbench ${Math.round(r.pgbench.tps)} TPS (TPC-B-like, scale ${r.pgbench.scale}, ${r.pgbench.clients} clients, ${r.pgbench.seconds} s).`);
  const emptyRoute = r.databases.postgres?.emptyRoute;
  const lifecycle32 = at(r.databases.postgres, LIFECYCLE, 32)?.operationsPerSecond;
  const bare = r.databases.postgres?.bare ?? [];
  if (emptyRoute) {
    // Next's own cost per request, which the dashboard pays and /v1 no longer does.
    const floor = emptyRoute.operationsPerSecond;
    const parts = [
      `Next.js's own request path: the same server answering its emptiest route (GET /api/health: no query, no auth, through Next's full pipeline) at c=32 does ${floor} req/s.`,
      "/v1 requests skip that pipeline: the production server hands them to the Hono app through @hono/node-server (scripts/serve.ts).",
    ];
    if (lifecycle32 !== undefined) parts.push(`The lifecycle at c=32 runs at ${pct(lifecycle32 / floor)} of the empty route's rate.`);
    const bare32 = bare.find((p) => p.concurrency === 32)?.operationsPerSecond;
    if (bare32 !== undefined) parts.push(`The bare server answers a whole GET milestone at ${bare32} req/s (c=32), ${pct(bare32 / floor)} of Next's empty route.`);
    lines.push(parts.join(' '));
  }
  if (typeof r.settings.warmUpSeconds === 'number') lines.push('', `Each server first ran every measured operation for ${r.settings.warmUpSeconds} s in all (the bare server a third of that), so that the figures are a warmed-up server's.`);
  for (const [name, db] of Object.entries(r.databases)) {
    if (!db) continue;
    lines.push('');
    lines.push(`**${name === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)'}**: closed loops; op/s = operations per second (a lifecycle step each), done/s = reads or whole lifecycles per second`);
    lines.push('');
    lines.push(row(['operation', 'c', 'op/s', 'done/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', 'server RSS MB', 'ratio']));
    lines.push(row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---']));
    for (const p of db.phases) {
      let ratio = '';
      if (p.name === 'GET milestone') {
        const b = bare.find((x) => x.concurrency === p.concurrency);
        if (b) ratio = `${pct(p.operationsPerSecond / b.operationsPerSecond)} of bare`;
      } else if (name === 'pglite') {
        const onPostgres = at(r.databases.postgres, p.name, p.concurrency ?? 0);
        if (onPostgres) ratio = `${pct(p.operationsPerSecond / onPostgres.operationsPerSecond)} of PostgreSQL`;
      }
      lines.push(row([p.name, p.concurrency ?? '', p.operationsPerSecond, p.completedPerSecond, p.all.p50, p.all.p95, p.all.p99, p.errors, p.peakRssMb, ratio]));
    }
    for (const p of db.bare) lines.push(row([p.name, p.concurrency ?? '', p.operationsPerSecond, p.completedPerSecond, p.all.p50, p.all.p95, p.all.p99, p.errors, p.peakRssMb, 'ceiling']));
    if (db.peakRssByProcessMb) lines.push('', `Each process at its own peak over these phases: ${Object.entries(db.peakRssByProcessMb).map(([role, mb]) => `${role} ${mb}`).join(', ')} MB.`);
    lines.push('');
    lines.push('At half of peak throughput (open loop, latency from each request’s scheduled start):');
    lines.push('');
    lines.push(row(['operation', 'rate/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', 'slowest step (p99)', 'server VACUUM in it']));
    lines.push(row(['---', '---:', '---:', '---:', '---:', '---:', '---', '---']));
    for (const p of openLoops(db)) {
      const slowest = Object.entries(p.latency).sort((a, b) => b[1].p99 - a[1].p99)[0];
      const vacuumed = Object.entries(p.vacuumed ?? {}).map(([table, ms]) => `${table} ${ms} ms`).join(', ');
      // The bare server has no table maintenance of its own.
      const ceiling = p === db.bareHalfPeak;
      lines.push(row([ceiling ? `${p.name} (ceiling)` : p.name, (p.ratePerSecond ?? 0).toFixed(1), p.all.p50, p.all.p95, p.all.p99, p.errors, slowest ? `${slowest[0]} ${slowest[1].p99} ms` : '', ceiling ? '' : vacuumed || 'none']));
    }
    if (db.sameRate) {
      const { rate, appP99, bareP99 } = db.sameRate;
      const [app, bareFigure] = [judgedFigure(appP99), judgedFigure(bareP99)];
      const verdict = equalWithinNoise(app, bareFigure) ? 'equal within noise' : `${(app / bareFigure).toFixed(2)}× the bare server's`;
      lines.push('');
      lines.push(
        `GET milestone on this server and on the bare one at one rate, the bare server's half of peak (${rate}/s), in ${appP99.length} alternating rounds: p99 ${app} ms here (${appP99.join(', ')}), ${bareFigure} ms on the bare server (${bareP99.join(', ')}): ${verdict}. At half of its own peak each loads the machine differently (a worker per core here, one process there): this is the tail of the same load.`,
      );
    }
    if (db.paired?.length) {
      lines.push('');
      const processes = db.paired[0]?.bareLifecycle?.processes ?? '?';
      lines.push(
        `Paired rounds for the throughput targets (c=32, ${r.settings.pairedSeconds ?? '?'} s each, which of a pair goes first alternating by round): GET milestone here and on the bare server (one process); the lifecycle here and on the bare write server in one process and in ${processes} (node:cluster), the better of which is the ceiling:`,
      );
      lines.push('');
      lines.push(row(['round', 'GET milestone req/s', 'bare req/s', 'ratio', 'lifecycle op/s', 'bare, 1 process', `bare, ${processes} processes`, 'ratio to the better', 'errors']));
      lines.push(row(['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
      db.paired.forEach((p, i) => {
        const better = Math.max(p.bareLifecycle?.oneProcess ?? 0, p.bareLifecycle?.perCore ?? 0);
        lines.push(row([i + 1, p.getMilestone, p.bareGetMilestone, pct(p.getMilestone / p.bareGetMilestone), p.lifecycle, p.bareLifecycle?.oneProcess ?? '', p.bareLifecycle?.perCore ?? '', better ? pct(p.lifecycle / better) : '', p.errors]));
      });
      const firstErrors = db.paired.flatMap((p) => p.firstErrors ?? []);
      if (firstErrors.length) lines.push('', `First errors of the paired rounds: ${firstErrors.slice(0, 5).join(' | ')}`);
    }
  }
  for (const [name, result] of Object.entries(r.sizes ?? {})) if (result) renderSizes(name, result, lines);
  const storm = r.storms?.deadlines;
  if (storm) {
    lines.push('');
    lines.push(
      `**Deadline storm** (PostgreSQL, bench/deadline-storm.ts): ${storm.transactions} transactions of one client under inspection, its test clock moved past every deadline at once. ${storm.settledInRequest} settled inside the clock's request (${storm.advanceMs} ms), the background worker the rest: all ${storm.due} in ${storm.secondsUntilAllSettled} s, ${storm.lapsesPerSecond} lapses/s, ${storm.actedTwice} twice. GET milestone at ${r.settings.stormReadsPerSecond ?? '?'}/s meanwhile: p50/p95/p99 ${storm.storm.p50}/${storm.storm.p95}/${storm.storm.p99} ms (max ${storm.storm.max}) against ${storm.quiet.p50}/${storm.quiet.p95}/${storm.quiet.p99} ms quiet.`,
    );
  }
  const hooks = r.storms?.webhooks;
  if (hooks) {
    lines.push('');
    lines.push(
      `**Webhook storm** (PostgreSQL, bench/webhook-storm.ts): ${hooks.events} events of one client waiting for its receiver on loopback (a low-priority process standing for the integrator's machine) at once. All delivered in ${hooks.secondsUntilAllDelivered} s, ${hooks.deliveriesPerSecond} deliveries/s; ${hooks.outOfOrder} out of per-transaction order, ${hooks.duplicates} twice. GET milestone at ${r.settings.stormReadsPerSecond ?? '?'}/s meanwhile: p50/p95/p99 ${hooks.storm.p50}/${hooks.storm.p95}/${hooks.storm.p99} ms (max ${hooks.storm.max}) against ${hooks.quiet.p50}/${hooks.quiet.p95}/${hooks.quiet.p99} ms quiet.`,
    );
  }
  lines.push('');
  lines.push('**Dashboard** first-load JavaScript per route (gzip, from the build):');
  lines.push('');
  lines.push(row(['route', 'gzip kB', 'raw kB']));
  lines.push(row(['---', '---:', '---:']));
  for (const b of r.dashboard.firstLoadJs) lines.push(row([b.route, b.gzipKb, b.rawKb]));
  if (r.dashboard.lcp) {
    lines.push('');
    lines.push(`Transaction page (${r.dashboard.lcp.milestones} milestones, ${r.dashboard.lcp.logLines} log lines) LCP in Chromium: ${r.dashboard.lcp.lcpMs.join(', ')} ms, median ${r.dashboard.lcp.medianMs} ms.`);
  }
  if (r.dashboard.pages?.length) {
    lines.push('');
    lines.push('**A page load’s cost to the API** (bench/dashboard-pages.ts): each page loaded in Chromium by the person who uses it, its /v1 calls counted by the trace id the dashboard passes on; API ms = their summed server time, document ms = the page document’s own server time (medians).');
    lines.push('');
    lines.push(row(['page', 'signed in as', 'API calls per load', 'file downloads', 'API ms', 'document ms']));
    lines.push(row(['---', '---', '---:', '---:', '---:', '---:']));
    for (const p of r.dashboard.pages) lines.push(row([p.page.replace(/[0-9a-f-]{36}/, '{id}'), p.role, p.apiCalls.join(', '), (p.fileDownloads ?? []).join(', '), p.medianApiMs, p.medianDocumentMs]));
  }
  if (r.elapsed?.length) {
    const minutes = (seconds: number) => (seconds / 60).toFixed(1);
    const estimated = new Map((r.estimate ?? []).map((p) => [p.phase, p.seconds]));
    const total = r.elapsed.reduce((sum, p) => sum + p.seconds, 0);
    lines.push('');
    lines.push(`**The run's length**: ${minutes(total)} min in all (estimated from the settings before the run: ${minutes((r.estimate ?? []).reduce((sum, p) => sum + p.seconds, 0))} min, the build not included).`);
    lines.push('');
    lines.push(row(['phase', 'min', 'estimated min']));
    lines.push(row(['---', '---:', '---:']));
    for (const p of r.elapsed) lines.push(row([p.phase, minutes(p.seconds), estimated.has(p.phase) ? minutes(estimated.get(p.phase)!) : '']));
  }
  return `${lines.join('\n')}\n`;
}

const HISTORY_HEADER = '# Benchmark runs\n\nOne line per default or full `npm run bench`, appended by it (bench/README.md, "The record").\n\n| date (UTC) | run | commit | targets met | not met |\n| --- | --- | --- | --- | --- |\n';

/** A run's headline for history.md: its kind, its targets met, and the ones not met by name. */
export function historyLine(r: BenchResult, commit: string): string {
  const all = targets(r);
  const missed = all.filter((t) => !t.met).map((t) => t.target.replaceAll('|', '/'));
  return `| ${r.date.slice(0, 16).replace('T', ' ')} | ${r.kind ?? 'full'} | ${commit} | ${all.length - missed.length} of ${all.length} | ${missed.join('; ') || 'none'} |`;
}

/** A default or full run's record: a line of bench/results/history.md, and a full run's report as bench/results/latest.md. */
export function recordRun(resultsDir: string, r: BenchResult, markdown: string, commit: string): void {
  if (r.kind === 'full') fs.writeFileSync(path.join(resultsDir, 'latest.md'), markdown);
  const history = path.join(resultsDir, 'history.md');
  const before = fs.existsSync(history) ? fs.readFileSync(history, 'utf8') : HISTORY_HEADER;
  fs.writeFileSync(history, `${before.trimEnd()}\n${historyLine(r, commit)}\n`);
}
