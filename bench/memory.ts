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

/** Each process of a tree (a process and its children) with its resident memory. */
type TreeReading = Map<number, number>;

function readTree(pid: number): TreeReading {
  return new Map([pid, ...childrenOf(pid)].map((id) => [id, rssBytes(id)]));
}

const sum = (reading: TreeReading) => [...reading.values()].reduce((total, bytes) => total + bytes, 0);

export function treeRssBytes(pid: number): number {
  return sum(readTree(pid));
}

/**
 * One sampling pass per tree, every 100 ms, whoever is listening (a phase's tree peak and the processes' own
 * peaks at once read /proc once). A listener is fed one reading as it joins and one as it leaves.
 */
const samplers = new Map<number, { timer: NodeJS.Timeout; listeners: Set<(reading: TreeReading) => void> }>();

function listenToTree(pid: number, listener: (reading: TreeReading) => void): () => void {
  let sampler = samplers.get(pid);
  if (!sampler) {
    const listeners = new Set<(reading: TreeReading) => void>();
    const timer = setInterval(() => {
      const reading = readTree(pid);
      for (const listen of listeners) listen(reading);
    }, 100);
    sampler = { timer, listeners };
    samplers.set(pid, sampler);
  }
  const { listeners, timer } = sampler;
  listeners.add(listener);
  listener(readTree(pid));
  return () => {
    listener(readTree(pid));
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      samplers.delete(pid);
    }
  };
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
  const stop = listenToTree(pid, (reading) => {
    for (const [id, bytes] of reading) {
      if (!roles.has(id)) roles.set(id, roleOf(id, pid));
      const role = roles.get(id)!;
      peaks[role] = Math.max(peaks[role] ?? 0, Math.round(bytes / 1048576));
    }
  });
  return () => {
    stop();
    return peaks;
  };
}

/** Samples the tree every 100 ms until stopped; returns its peak. */
export function samplePeakRss(pid: number): () => number {
  let peak = 0;
  const stop = listenToTree(pid, (reading) => (peak = Math.max(peak, sum(reading))));
  return () => {
    stop();
    return peak;
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
