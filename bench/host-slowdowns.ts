/**
 * The machine's own slow spells, measured on the idle machine before the run: one thread per core counts
 * the turns of a busy loop in 10 ms windows, and a window that did under 60% of that thread's median
 * work ran slow for a reason outside the benchmark.
 *
 * On a virtual machine whose host is busy with other guests, the cores slow down together for tens of
 * milliseconds at a time, and the guest sees it as neither steal time nor another process: /proc/stat
 * counts the windows as user time, and the busy loop alone shows that less work got done. Every request
 * in flight then takes several times as long, ours and the bare server's alike, so that a p99 reads the
 * machine more than the code; the report puts this figure beside the latency targets.
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { median } from './median';

export type HostSlowdowns = {
  seconds: number;
  windowMs: number;
  /** Share of all cores' windows that ran under 60% of their thread's median pace. */
  slowShare: number;
  /** Of those, the share in which the thread was on a CPU for under 80% of the window (the CPU taken away, not slow). */
  offCpuShare: number;
  /** Runs of consecutive slow windows on one core, and the longest of them. */
  spells: number;
  longestSpellMs: number;
  /** The slowest window's pace against the median (0.1 = a tenth of the work done). */
  slowestPace: number;
};

const WINDOW_MS = 10;
const SLOW_PACE = 0.6;
const WARM_UP_WINDOWS = 10;

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

type CoreWindows = { counts: number[]; onCpu: number[] };

function spin(ms: number): Promise<CoreWindows> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SPIN, { eval: true, workerData: { windowMs: WINDOW_MS, ms } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

function summarizeSlowdowns(perCore: CoreWindows[], seconds: number): HostSlowdowns {
  let windows = 0;
  let slow = 0;
  let offCpu = 0;
  let spells = 0;
  let longest = 0;
  let slowestPace = 1;
  for (const measured of perCore) {
    // The first windows are the loop's own warm-up (the JIT compiling it), not the machine.
    const counts = measured.counts.slice(WARM_UP_WINDOWS);
    const onCpu = measured.onCpu.slice(WARM_UP_WINDOWS);
    const middle = median(counts);
    if (middle === 0) continue;
    let run = 0;
    // A window at the median's pace after the last closes a spell still open at the end.
    for (const [i, count] of [...counts, middle].entries()) {
      const pace = count / middle;
      if (pace < SLOW_PACE) {
        slow++;
        if ((onCpu[i] ?? WINDOW_MS) < WINDOW_MS * 0.8) offCpu++;
        run++;
        slowestPace = Math.min(slowestPace, pace);
        continue;
      }
      if (run > 0) {
        spells++;
        longest = Math.max(longest, run * WINDOW_MS);
      }
      run = 0;
    }
    windows += counts.length;
  }
  const share = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 1000 : 0);
  return { seconds, windowMs: WINDOW_MS, slowShare: share(slow, windows), offCpuShare: share(offCpu, slow), spells, longestSpellMs: longest, slowestPace: Math.round(slowestPace * 100) / 100 };
}

/** One busy thread per core for `seconds`: run it on a machine with nothing else of ours running. */
export async function measureHostSlowdowns(seconds: number): Promise<HostSlowdowns> {
  const perCore = await Promise.all(Array.from({ length: os.availableParallelism() }, () => spin(seconds * 1000)));
  return summarizeSlowdowns(perCore, seconds);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void measureHostSlowdowns(Number(process.argv[2] ?? 10)).then((r) => console.log(JSON.stringify(r)));
}
