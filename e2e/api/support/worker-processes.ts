/**
 * The worker processes of a test server on PostgreSQL (scripts/production-server/workers.ts), as the kernel shows
 * them under /proc: which they are, which is the background worker, whether one still runs.
 */
import fs from 'node:fs';
import type { TestServer } from '../../support/test-server';

export function workerPids(server: TestServer): number[] {
  return fs.readFileSync(`/proc/${server.process.pid}/task/${server.process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

/** A process's scheduling niceness, from /proc/<pid>/stat (the field after its priority). */
export function niceness(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** A process's command line, as the kernel has it. */
export function commandLine(pid: number): string[] {
  return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits (up to a minute for each) until two request workers listen and the background worker is ready; how
 * many listen. A worker listens only after its start-up, which on a loaded machine takes seconds after its
 * process appears.
 */
export async function workersStarted(server: TestServer): Promise<number> {
  const listening = () => server.output().split('"msg":"listening"').length - 1;
  for (let attempt = 0; attempt < 600 && listening() < 2; attempt++) await new Promise((r) => setTimeout(r, 100));
  for (let attempt = 0; attempt < 600 && !server.output().includes('"msg":"escrow desk background worker ready"'); attempt++) await new Promise((r) => setTimeout(r, 100));
  return listening();
}
