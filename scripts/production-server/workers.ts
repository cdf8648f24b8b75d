/**
 * The production server as several worker processes on one port (node:cluster), when it runs on
 * PostgreSQL: one Node.js process answers on one core, and on a 2-core machine one process left a
 * quarter of the machine idle while requests queued behind it. The embedded database belongs to one
 * process, so on PGlite the server stays one process.
 *
 * The first worker starts alone (migrations, demo data), the others once it listens, with one more that
 * answers no request: the background worker runs the deadline runner, the webhook dispatcher and the
 * other pollers, so that a storm of lapses or deliveries is worked through beside the requests rather than
 * between them on one event loop.
 * A worker that dies after the server is up is replaced; one that dies before stops the server, with its
 * message, as a single process would. Workers hear of each other's changes to a client through
 * PostgreSQL, as separate servers do (lib/server/client-cache.ts).
 */
import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import { env } from '../../lib/server/env';
import { log } from '../../lib/server/logger';
import { boundsHeap, SERVER_HEAP_MB } from './command';
import { shareConnections } from './connection-balance';

/** ESCROW_WORKERS, else one per core on PostgreSQL; always one on the embedded database. */
export function workerCount(environment: NodeJS.ProcessEnv): number {
  const onPostgres = Boolean(environment.DATABASE_URL);
  const setting = environment.ESCROW_WORKERS;
  if (setting === undefined || setting === '') return onPostgres ? os.availableParallelism() : 1;
  const count = Number(setting);
  if (!Number.isInteger(count) || count < 1 || count > 64) throw new Error(`ESCROW_WORKERS must be a whole number from 1 to 64, not "${setting}".`);
  if (count > 1 && !onPostgres) throw new Error('ESCROW_WORKERS above 1 needs DATABASE_URL: the embedded database can be open in one process only.');
  return count;
}

/** A request worker's bound on V8's old generation, in MB: the server's (command.ts). */
export const REQUEST_WORKER_HEAP_MB = SERVER_HEAP_MB;

/**
 * A request worker's Node.js flags: the primary's, with the server's bound on the heap's old generation
 * (command.ts, heapBound) unless the primary's flags or NODE_OPTIONS set one.
 */
export function requestWorkerExecArgv(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const bounded = boundsHeap([...execArgv, ...(nodeOptions ?? '').split(/\s+/)]);
  return bounded ? [...execArgv] : [...execArgv, `--max-old-space-size=${REQUEST_WORKER_HEAP_MB}`];
}

/** The background worker keeps V8's default heap: its storms are batches of a size of their own. */
export function backgroundWorkerExecArgv(execArgv: readonly string[]): string[] {
  return execArgv.filter((flag) => flag !== `--max-old-space-size=${SERVER_HEAP_MB}`);
}

/**
 * A worker exits with this code (lib/server/startup.ts) when its settings are wrong in a way no restart
 * fixes (an encryption key other than its peers'): the server stops with it instead of replacing the worker.
 */
export const EXIT_MISCONFIGURED = 78;

export function runWorkers(count: number): void {
  const workerOf = new Map<Worker, number>();
  let serving = false;
  let stopping = false;
  const requestWorkerFlags = requestWorkerExecArgv(process.execArgv, process.env.NODE_OPTIONS);

  // The background worker's index follows the request workers'.
  const fork = (index: number) => {
    const background = index > count;
    const role = background ? { ESCROW_WORKER_ROLE: 'background' } : {};
    cluster.setupPrimary({ execArgv: background ? backgroundWorkerExecArgv(process.execArgv) : requestWorkerFlags });
    // Started once the server serves (the rest, and replacements): a database outage is waited out, not a reason to exit.
    const waits = serving ? { ESCROW_WORKER_WAITS_FOR_DATABASE: '1' } : {};
    const worker = cluster.fork({ ESCROW_WORKER: String(index), ESCROW_WORKER_COUNT: String(count), ...role, ...waits });
    workerOf.set(worker, index);
    return worker;
  };

  const connections = shareConnections();
  // A worker exiting as its share is sent misses it: it has no connections left to let go of.
  cluster.on('message', (worker, message) => connections.heard(worker.id, message, (share) => worker.isConnected() && worker.send(share, () => {})));

  cluster.on('exit', (worker, code, signal) => {
    const index = workerOf.get(worker);
    workerOf.delete(worker);
    connections.forget(worker.id);
    if (stopping) {
      if (workerOf.size === 0) process.exit(0);
      return;
    }
    // Workers listen before their start-up (instrumentation) has finished, so "serving" does not mean started.
    if (!serving || index === undefined || code === EXIT_MISCONFIGURED) process.exit(code || 1);
    log.error({ msg: 'worker exited; starting another', worker: index, code, signal });
    setTimeout(() => fork(index), 1000);
  });

  // Each worker accepts its own connections from the shared socket (SCHED_NONE), so a new connection
  // goes to a worker that is free to take it. Round-robin had the primary accept each one and hand it
  // to the next worker in turn, paused in GC or not, and a client opening connections in a burst (as one
  // does when a stall has piled up its requests) waited on that worker (bench/README.md, "What keeps
  // the server's figures low"). The price, connections landing unevenly (a burst of them all on one worker), is paid back by
  // connection-balance.ts.
  // NODE_CLUSTER_SCHED_POLICY=rr brings round-robin back, where a deployment wants it.
  if (!process.env.NODE_CLUSTER_SCHED_POLICY) cluster.schedulingPolicy = cluster.SCHED_NONE;
  const first = fork(1);
  first.once('listening', () => {
    serving = true;
    for (let index = 2; index <= count + 1; index++) fork(index);
  });

  // Each worker bounds every step of its own shutdown (serve.ts); past all of them, the primary ends what is left.
  const { ESCROW_SHUTDOWN_DELAY_MS: delay, ESCROW_SHUTDOWN_GRACE_MS: grace } = env();
  const lastResortMs = delay + 3 * grace + 5_000;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stopping = true;
      if (workerOf.size === 0) process.exit(0);
      for (const worker of workerOf.keys()) worker.process.kill('SIGTERM');
      setTimeout(() => {
        for (const worker of workerOf.keys()) worker.process.kill('SIGKILL');
        process.exit(0);
      }, lastResortMs).unref();
    });
  }
}
