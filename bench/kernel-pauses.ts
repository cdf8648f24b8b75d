/**
 * The kernel's own memory monitor (DAMON's kdamond), where this machine runs one, watched during a
 * phase. Here it samples physical memory every 500 ms (sample_us) and, under load, each sample costs it
 * 15-45 ms of CPU on a kernel built without preemption: for that long one of the two cores serves nothing
 * else. Of the latency spikes over 30 ms in the open loops at half of peak, 21 of 23, 25 of 28 and 24 of 27
 * (three runs) began within 15 ms of such a burst, the bare node:http + pg server's as much as ours.
 * The benchmark does not turn it off (it is the machine's, not ours); it says how often it ran.
 */
import fs from 'node:fs';

const ADMIN = '/sys/kernel/mm/damon/admin/kdamonds';

export type KernelPauses = { bursts: number; maxBurstMs: number; totalMs: number };

function read(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The running kdamond threads' pids, and their sampling interval: none where the kernel has no DAMON. */
export function damonThreads(): { pids: number[]; sampleMs: number[] } {
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
 * Starts counting the kdamond bursts: CPU it used in runs of consecutive 10 ms samples. The returned
 * function stops and gives the bursts, or undefined where there is nothing to watch.
 */
export function watchKernelPauses(): () => KernelPauses | undefined {
  const { pids } = damonThreads();
  if (pids.length === 0) return () => undefined;
  let last = pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  let current = 0;
  const bursts: number[] = [];
  const timer = setInterval(() => {
    const now = pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
    const used = now - last;
    last = now;
    if (used > 0.5) current += used;
    else if (current > 0) {
      bursts.push(current);
      current = 0;
    }
  }, 10);
  return () => {
    clearInterval(timer);
    if (current > 0) bursts.push(current);
    const round = (x: number) => Math.round(x * 10) / 10;
    return { bursts: bursts.length, maxBurstMs: round(Math.max(0, ...bursts)), totalMs: round(bursts.reduce((a, b) => a + b, 0)) };
  };
}
