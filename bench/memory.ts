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

/** A process's resident memory, 0 once it has exited. */
function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export function treeRssBytes(pid: number): number {
  return [pid, ...childrenOf(pid)].reduce((total, id) => total + rssBytes(id), 0);
}

/** What a process of the production server is (scripts/production-server/workers.ts), read from its environment. */
function roleOf(pid: number, serverPid: number): string {
  let environment: string[] = [];
  try {
    environment = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  } catch {
    // exited
  }
  const setting = (name: string) => environment.find((entry) => entry.startsWith(`${name}=`))?.slice(name.length + 1);
  if (setting('ESCROW_WORKER_ROLE') === 'background') return 'background worker';
  const index = setting('ESCROW_WORKER');
  if (index) return `worker ${index}`;
  if (pid !== serverPid) return `process ${pid}`;
  // The cluster's primary (PostgreSQL), or the whole server where it runs as one process (PGlite).
  return childrenOf(pid).length > 0 ? 'primary' : 'server';
}

/**
 * Samples every 100 ms until stopped; returns each process's own peak in MB, by what it is (the primary,
 * each request worker, the background worker): which of them grows, where the tree's peak only says that one did.
 */
export function samplePeakRssByProcess(pid: number): () => Record<string, number> {
  const roles = new Map<number, string>();
  const peaks: Record<string, number> = {};
  const sample = () => {
    for (const id of [pid, ...childrenOf(pid)]) {
      if (!roles.has(id)) roles.set(id, roleOf(id, pid));
      const role = roles.get(id)!;
      peaks[role] = Math.max(peaks[role] ?? 0, Math.round(rssBytes(id) / 1048576));
    }
  };
  sample();
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    sample();
    return peaks;
  };
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
