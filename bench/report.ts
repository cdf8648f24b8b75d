/** The benchmark's targets, its Markdown report and its record (bench/results). */
import fs from 'node:fs';
import path from 'node:path';
import { median } from './median';
import type { BenchResult, DatabaseResult, PairedRound, PhaseResult, SizeResult, TwoSizesResult } from './result-types';

type Target = { target: string; measured: string; met: boolean };

const LIFECYCLE = 'escrow lifecycle';
const READ_OPS = ['GET milestone', 'list users page', 'list transactions'];
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const pct1 = (x: number) => `${(x * 100).toFixed(1)}%`;
/** The lifecycle target: operations per second at c=32 as a share of pgbench's TPS. */
const LIFECYCLE_SHARE_OF_PGBENCH = 0.25;
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
    const tps = sum((p) => p.pgbenchTps);
    out.push({ target: `Lifecycle operations/s at concurrency 32 ≥ ${pct(LIFECYCLE_SHARE_OF_PGBENCH)} of pgbench TPS (paired rounds)`, measured: `${lifecycle} / ${tps} = ${pct(lifecycle / tps)}`, met: lifecycle / tps >= LIFECYCLE_SHARE_OF_PGBENCH });
    const app = sum((p) => p.getMilestone);
    const bare = sum((p) => p.bareGetMilestone);
    out.push({ target: 'GET milestone throughput ≥ 60% of the bare node:http + pg server (paired rounds, c=32)', measured: `${app} / ${bare} req/s = ${pct(app / bare)}`, met: app / bare >= 0.6 });
  } else {
    const lifecycle32 = at(pgDb, LIFECYCLE, 32)?.operationsPerSecond;
    if (r.pgbench && lifecycle32 !== undefined) {
      const ratio = lifecycle32 / r.pgbench.tps;
      out.push({ target: `Lifecycle operations/s at concurrency 32 ≥ ${pct(LIFECYCLE_SHARE_OF_PGBENCH)} of pgbench TPS`, measured: `${lifecycle32} / ${Math.round(r.pgbench.tps)} = ${pct(ratio)}`, met: ratio >= LIFECYCLE_SHARE_OF_PGBENCH });
    }
    if (pgDb && pgDb.bare.length) {
      const app = peak(pgDb.phases, 'GET milestone');
      const bare = peak(pgDb.bare, 'bare GET milestone');
      out.push({ target: 'GET milestone throughput ≥ 60% of the bare node:http + pg server', measured: `${app} / ${bare} req/s = ${pct(app / bare)}`, met: app / bare >= 0.6 });
    }
  }
  for (const [name, db] of Object.entries(r.databases)) {
    if (!db) continue;
    const reads = db.halfPeak.filter((p) => READ_OPS.includes(p.name));
    const writes = db.halfPeak.filter((p) => !READ_OPS.includes(p.name));
    const worstRead = Math.max(0, ...reads.map((p) => p.all.p99));
    const worstWrite = Math.max(0, ...writes.map((p) => p.all.p99));
    const floor = db.bareHalfPeak ? ` (the bare server at half of its peak: ${db.bareHalfPeak.all.p99} ms)` : '';
    out.push({ target: `${name}: at half of peak, p99 ≤ 50 ms for reads`, measured: `${reads.map((p) => `${p.name} ${p.all.p99} ms`).join(', ')}${floor}`, met: worstRead <= 50 });
    out.push({ target: `${name}: at half of peak, p99 ≤ 100 ms for money-moving writes`, measured: writes.map((p) => `${p.name} ${p.all.p99} ms`).join(', '), met: worstWrite <= 100 });
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
  const heaviest = [...r.dashboard.firstLoadJs].sort((a, b) => b.gzipKb - a.gzipKb)[0];
  if (heaviest) out.push({ target: 'Every dashboard route ≤ 150 kB first-load JS (gzip)', measured: `heaviest ${heaviest.route} ${heaviest.gzipKb} kB`, met: heaviest.gzipKb <= 150 });
  if (r.dashboard.lcp) {
    out.push({ target: 'Transaction page LCP ≤ 1 s (20 milestones, 200 log lines)', measured: `median ${r.dashboard.lcp.medianMs} ms of ${r.dashboard.lcp.lcpMs.join(', ')}`, met: r.dashboard.lcp.medianMs <= 1000 });
  }
  for (const [name, result] of Object.entries(r.sizes ?? {})) if (result) out.push(...sizeTargets(name, result));
  const storm = r.storms?.deadlines;
  if (storm) {
    out.push({ target: `Deadline storm (${storm.due} lapses at once): ≥ 1,000 settled per second`, measured: `${storm.lapsesPerSecond}/s (all settled in ${storm.secondsUntilAllSettled ?? 'more than the timeout of'} s)`, met: storm.lapsesPerSecond >= 1000 });
    out.push({ target: 'Deadline storm: none acts twice, the ledger balances', measured: `${storm.actedTwice} twice; ledger ${storm.ledgerBalanced ? 'balanced' : '**unbalanced**'}`, met: storm.actedTwice === 0 && storm.ledgerBalanced });
    const ratio = storm.storm.p99 / storm.quiet.p99;
    out.push({ target: 'Deadline storm: API p99 ≤ 2× its quiet value (GET milestone, same rate)', measured: `${storm.storm.p99} / ${storm.quiet.p99} ms = ${ratio.toFixed(2)}×, ${storm.errors} errors`, met: ratio <= 2 && storm.errors === 0 });
  }
  const hooks = r.storms?.webhooks;
  if (hooks) {
    out.push({ target: `Webhook storm (${hooks.events} events waiting for one receiver): ≥ 1,000 deliveries per second`, measured: `${hooks.deliveriesPerSecond}/s (all delivered in ${hooks.secondsUntilAllDelivered ?? 'more than the timeout of'} s)`, met: hooks.deliveriesPerSecond >= 1000 });
    out.push({
      target: 'Webhook storm: each event once, in per-transaction order',
      measured: `${hooks.received} received, ${hooks.outOfOrder} out of order, ${hooks.duplicates} twice, ${hooks.failed} failed`,
      met: hooks.received === hooks.events && hooks.outOfOrder === 0 && hooks.duplicates === 0 && hooks.failed === 0,
    });
    const ratio = hooks.storm.p99 / hooks.quiet.p99;
    out.push({ target: 'Webhook storm: API p99 ≤ 2× its quiet value (GET milestone, same rate)', measured: `${hooks.storm.p99} / ${hooks.quiet.p99} ms = ${ratio.toFixed(2)}×, ${hooks.errors} errors`, met: ratio <= 2 && hooks.errors === 0 });
  }
  return out;
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
    const p99 = ratio(openBig?.all.p99 ?? Number.POSITIVE_INFINITY, openSmall?.all.p99 ?? 0);
    const errors = [closedSmall, closedBig, openSmall, openBig].reduce((n, p) => n + (p?.errors ?? 0), 0);
    return { name: closedSmall.name, closedSmall, closedBig, openSmall, openBig, throughput, p99, errors };
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
    const over = rows.filter((r) => r.p99 > SIZE_LIMITS.p99).map((r) => r.name);
    out.push({
      target: `${at}: every p99 ≤ 1.25× (open loop at half of peak)`,
      measured: `highest ${latest.name} ${latest.openBig?.all.p99} / ${latest.openSmall?.all.p99} ms = ${latest.p99.toFixed(2)}×${over.length ? `; over 1.25×: ${over.join(', ')}` : ''}`,
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
    const met = r.throughput >= SIZE_LIMITS.throughput && r.p99 <= SIZE_LIMITS.p99;
    lines.push(
      row([r.name, r.closedSmall.operationsPerSecond, r.closedBig?.operationsPerSecond ?? '', pct(r.throughput), r.openSmall?.all.p99 ?? '', r.openBig?.all.p99 ?? '', `${r.p99.toFixed(2)}×`, r.closedSmall.all.p99, r.closedBig?.all.p99 ?? '', r.errors, met ? 'met' : '**not met**']),
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
  const slowSpells = spells
    ? ` The idle machine's own slow spells (bench/slow-spells.ts, a busy loop per core for ${spells.seconds} s): ${pct1(spells.slowShare)} of ${spells.windowMs} ms windows did under 60% of the median work.`
    : '';
  lines.push(`Benchmark of ${r.date.slice(0, 16).replace('T', ' ')} UTC${r.quick ? ' (quick: short phases, not for comparison)' : ''}: ${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memoryGb} GiB, Node ${r.machine.node}; load driven from a separate process over keep-alive HTTP.${slowSpells}`);
  lines.push('');
  lines.push(r.sizes ? '**Targets (issues #6 and #28)**' : '**Targets (issue #6)**');
  lines.push('');
  lines.push(row(['target', 'measured', '']));
  lines.push(row(['---', '---', '---']));
  for (const t of targets(r)) lines.push(row([t.target, t.measured, t.met ? 'met' : '**not met**']));
  lines.push('');
  if (r.pgbench) lines.push(`Ceilings: pgbench ${Math.round(r.pgbench.tps)} TPS (TPC-B-like, scale ${r.pgbench.scale}, ${r.pgbench.clients} clients, ${r.pgbench.seconds} s).`);
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
      } else if (!READ_OPS.includes(p.name) && r.pgbench) ratio = `${pct(p.operationsPerSecond / r.pgbench.tps)} of pgbench`;
      lines.push(row([p.name, p.concurrency ?? '', p.operationsPerSecond, p.completedPerSecond, p.all.p50, p.all.p95, p.all.p99, p.errors, p.peakRssMb, ratio]));
    }
    for (const p of db.bare) lines.push(row([p.name, p.concurrency ?? '', p.operationsPerSecond, p.completedPerSecond, p.all.p50, p.all.p95, p.all.p99, p.errors, p.peakRssMb, 'ceiling']));
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
      lines.push('');
      lines.push(
        `GET milestone on this server and on the bare one at one rate, the bare server's half of peak (${rate}/s), in ${appP99.length} alternating rounds: p99 ${median(appP99)} ms here (${appP99.join(', ')}), ${median(bareP99)} ms on the bare server (${bareP99.join(', ')}). At half of its own peak each loads the machine differently (a worker per core here, one process there): this is the tail of the same load.`,
      );
    }
    if (db.paired?.length) {
      lines.push('');
      lines.push(`Paired rounds for the throughput targets (c=32, ${r.settings.pairedSeconds ?? '?'} s each, one after the other: GET milestone, the bare server, the lifecycle, pgbench):`);
      lines.push('');
      lines.push(row(['round', 'GET milestone req/s', 'bare req/s', 'ratio', 'lifecycle op/s', 'pgbench TPS', 'ratio', 'errors']));
      lines.push(row(['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
      db.paired.forEach((p, i) => lines.push(row([i + 1, p.getMilestone, p.bareGetMilestone, pct(p.getMilestone / p.bareGetMilestone), p.lifecycle, p.pgbenchTps, pct(p.lifecycle / p.pgbenchTps), p.errors])));
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
  return `${lines.join('\n')}\n`;
}

const HISTORY_HEADER = '# Full benchmark runs\n\nOne line per full `npm run bench`, appended by it (bench/README.md, "The record").\n\n| date (UTC) | commit | targets met | not met |\n| --- | --- | --- | --- |\n';

/** A full run's headline for history.md: its targets met, and the ones not met by name. */
export function historyLine(r: BenchResult, commit: string): string {
  const all = targets(r);
  const missed = all.filter((t) => !t.met).map((t) => t.target.replaceAll('|', '/'));
  return `| ${r.date.slice(0, 16).replace('T', ' ')} | ${commit} | ${all.length - missed.length} of ${all.length} | ${missed.join('; ') || 'none'} |`;
}

/** A full run's record: its report as bench/results/latest.md, and a line of bench/results/history.md. */
export function recordFullRun(resultsDir: string, r: BenchResult, markdown: string, commit: string): void {
  fs.writeFileSync(path.join(resultsDir, 'latest.md'), markdown);
  const history = path.join(resultsDir, 'history.md');
  const before = fs.existsSync(history) ? fs.readFileSync(history, 'utf8') : HISTORY_HEADER;
  fs.writeFileSync(history, `${before.trimEnd()}\n${historyLine(r, commit)}\n`);
}
