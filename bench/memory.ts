/** Resident memory and CPU time of a process and its children, read from /proc while a phase runs. */
import fs from 'node:fs';

function childrenOf(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

export function treeRssBytes(pid: number): number {
  let total = 0;
  for (const id of [pid, ...childrenOf(pid)]) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${id}/status`, 'utf8'));
      if (match) total += Number(match[1]) * 1024;
    } catch {
      // exited
    }
  }
  return total;
}

/** Samples every 100 ms until stopped; returns the peak. */
export function samplePeakRss(pid: number): () => number {
  let peak = treeRssBytes(pid);
  const timer = setInterval(() => (peak = Math.max(peak, treeRssBytes(pid))), 100);
  return () => {
    clearInterval(timer);
    return Math.max(peak, treeRssBytes(pid));
  };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ): 100 on Linux everywhere it runs. */
const TICKS_PER_SECOND = 100;

/** CPU time (user and system) a process has used, in ms; 0 once it has exited. */
function cpuMs(pid: number): number {
  try {
    // The fields after the command name, which may itself hold spaces: utime and stime are the 14th and 15th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU time of a process and its children, in ms. */
export function treeCpuMs(pid: number): number {
  return [pid, ...childrenOf(pid)].reduce((sum, id) => sum + cpuMs(id), 0);
}

/** CPU time every core of the machine has spent busy (user, nice, system, interrupts), in ms. */
export function machineBusyMs(): number {
  // /proc/stat's first line: cpu user nice system idle iowait irq softirq steal …, in clock ticks.
  const [, user, nice, system, , , irq, softirq] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
  return ((user! + nice! + system! + irq! + softirq!) * 1000) / TICKS_PER_SECOND;
}

/** CPU time of each PostgreSQL server process on this machine, in ms, by pid. */
export function postgresCpuMs(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') byPid.set(Number(entry), cpuMs(Number(entry)));
    } catch {
      // exited
    }
  }
  return byPid;
}

/** The CPU time PostgreSQL's processes spent between two readings of postgresCpuMs (a backend that exited in between is not counted). */
export function postgresCpuSince(before: Map<number, number>, after = postgresCpuMs()): number {
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}
