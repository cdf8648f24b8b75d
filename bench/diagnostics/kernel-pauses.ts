/**
 * Usage: npx tsx bench/diagnostics/kernel-pauses.ts [seconds=60]
 *
 * The kernel's own memory monitor (DAMON's kdamond), where the machine runs one, watched for `seconds`:
 * its sampling interval, then each burst of CPU it takes as the burst ends (with the time, to line up with
 * a latency spike of a bench phase run beside it), then the count, the longest and the total. On a kernel
 * built without preemption a burst holds one core for its whole length, whatever else is waiting for it.
 */
import fs from 'node:fs';

const ADMIN = '/sys/kernel/mm/damon/admin/kdamonds';

type KernelPauses = { bursts: number; maxBurstMs: number; totalMs: number };

function read(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The running kdamond threads' pids, and their sampling interval: none where the kernel has no DAMON. */
function damonThreads(): { pids: number[]; sampleMs: number[] } {
  const pids: number[] = [];
  const sampleMs: number[] = [];
  let entries: string[] = [];
  try {
    entries = fs.readdirSync(ADMIN).filter((name) => /^\d+$/.test(name));
  } catch {
    return { pids, sampleMs };
  }
  for (const name of entries) {
    if (read(`${ADMIN}/${name}/state`) !== 'on') continue;
    const pid = Number(read(`${ADMIN}/${name}/pid`));
    if (!pid) continue;
    pids.push(pid);
    const sampleUs = Number(read(`${ADMIN}/${name}/contexts/0/monitoring_attrs/intervals/sample_us`));
    if (sampleUs) sampleMs.push(sampleUs / 1000);
  }
  return { pids, sampleMs };
}

/** CPU time the thread has run, in ms (schedstat: nanoseconds on the CPU first). */
function cpuMs(pid: number): number {
  const line = read(`/proc/${pid}/schedstat`);
  return line ? Number(line.split(' ')[0]) / 1e6 : 0;
}

/**
 * Counts the bursts of `pids`: CPU they used in runs of consecutive 10 ms samples, each handed to `onBurst`
 * as it ends. The returned function stops and gives the tally.
 */
function watchBursts(pids: number[], onBurst: (ms: number) => void): () => KernelPauses {
  let last = pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  let current = 0;
  const bursts: number[] = [];
  const end = () => {
    bursts.push(current);
    onBurst(current);
    current = 0;
  };
  const timer = setInterval(() => {
    const now = pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
    const used = now - last;
    last = now;
    // Under half a millisecond in 10 ms is the thread idle between samples, not a burst.
    if (used > 0.5) current += used;
    else if (current > 0) end();
  }, 10);
  return () => {
    clearInterval(timer);
    if (current > 0) end();
    const round = (x: number) => Math.round(x * 10) / 10;
    return { bursts: bursts.length, maxBurstMs: round(Math.max(0, ...bursts)), totalMs: round(bursts.reduce((a, b) => a + b, 0)) };
  };
}

function main() {
  const seconds = Number(process.argv[2] ?? 60);
  if (process.argv.includes('--help') || !(seconds > 0)) {
    console.log('Usage: npx tsx bench/diagnostics/kernel-pauses.ts [seconds=60]');
    return;
  }
  const { pids, sampleMs } = damonThreads();
  if (pids.length === 0) {
    console.log(`No kdamond runs here (nothing under ${ADMIN} is on).`);
    return;
  }
  console.log(`kdamond threads ${pids.join(', ')}, sampling every ${sampleMs.join(', ')} ms; watching for ${seconds} s…`);
  const stop = watchBursts(pids, (ms) => console.log(`${new Date().toISOString()}  burst ${ms.toFixed(1)} ms`));
  setTimeout(() => console.log(JSON.stringify(stop())), seconds * 1000);
}

main();
