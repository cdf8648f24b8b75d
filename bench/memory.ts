/** Resident memory of a process and its children, sampled from /proc while a phase runs. */
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
