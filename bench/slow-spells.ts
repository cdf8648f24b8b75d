/**
 * The machine's slow-spell share, sampled on the idle machine before a run: a thread per core counts the
 * turns of a busy loop in 10 ms windows, and a window that did under 60% of its thread's median work ran
 * slow for a reason outside the benchmark. The report gives the share beside the targets, because a p99
 * on a machine with many slow windows reads the machine more than the code (bench/README.md, "Why these
 * choices"); bench/diagnostics/host-slowdowns.ts breaks the same windows down further.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { median } from './median';

export const WINDOW_MS = 10;
export const SLOW_PACE = 0.6;
/** The first windows are the loop's own warm-up (the JIT compiling it), not the machine. */
export const WARM_UP_WINDOWS = 10;

export type SlowSpells = {
  seconds: number;
  windowMs: number;
  /** Share of all cores' windows that ran under 60% of their thread's median pace. */
  slowShare: number;
};

/** One core's windows after its warm-up: the loop's turns in each, and the ms its thread was on a CPU. */
export type CoreWindows = { counts: number[]; onCpu: number[] };

// Runs in a worker thread: a busy loop that notes how many turns each window held, and how long the
// thread was on a CPU in it (schedstat's first field, ns), which tells a slow CPU from a CPU taken away.
const SPIN = `
const fs = require('node:fs');
const { workerData, parentPort } = require('node:worker_threads');
const { windowMs, ms } = workerData;
const onCpuNs = () => Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
const counts = [];
const onCpu = [];
const started = performance.now();
let windowEnds = started + windowMs;
let turns = 0;
let cpuAtStart = onCpuNs();
for (;;) {
  turns++;
  if ((turns & 1023) !== 0) continue;
  const now = performance.now();
  if (now < windowEnds) continue;
  const cpu = onCpuNs();
  counts.push(turns);
  onCpu.push((cpu - cpuAtStart) / 1e6);
  cpuAtStart = cpu;
  turns = 0;
  windowEnds += windowMs;
  if (now - started >= ms) break;
}
parentPort.postMessage({ counts, onCpu });
`;

function spin(ms: number): Promise<CoreWindows> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SPIN, { eval: true, workerData: { windowMs: WINDOW_MS, ms } });
    worker.once('message', (windows: CoreWindows) => resolve({ counts: windows.counts.slice(WARM_UP_WINDOWS), onCpu: windows.onCpu.slice(WARM_UP_WINDOWS) }));
    worker.once('error', reject);
  });
}

/** One busy thread per core for `seconds`: run it with nothing else of ours running. */
export function spinEveryCore(seconds: number): Promise<CoreWindows[]> {
  return Promise.all(Array.from({ length: os.availableParallelism() }, () => spin(seconds * 1000)));
}

/** Share rounded to a tenth of a percent, 0 of nothing. */
export const share = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 1000 : 0);

export async function measureSlowSpells(seconds: number): Promise<SlowSpells> {
  let windows = 0;
  let slow = 0;
  for (const { counts } of await spinEveryCore(seconds)) {
    const middle = median(counts);
    if (middle === 0) continue;
    slow += counts.filter((count) => count / middle < SLOW_PACE).length;
    windows += counts.length;
  }
  return { seconds, windowMs: WINDOW_MS, slowShare: share(slow, windows) };
}
