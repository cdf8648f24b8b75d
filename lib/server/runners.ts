import 'server-only';
import { startPolled, type BackgroundRunner, type RunnerContext, type RunningRunner } from './background-poller';
import { checkoutRunner } from './checkouts/runner';
import { listCountFolding } from './db/list-counts';
import { tableMaintenance } from './db/table-maintenance';
import { deadlineRunner } from './deadlines/runner';
import { emailRunner } from './email/sender';
import { env } from './env';
import { webhookDispatcher } from './events/dispatcher';
import { payoutRunner } from './payouts/runner';

/**
 * Every background runner of a server (docs/operations.md, "Background work"). Each works from rows its
 * writes left in the database, claimed so that two servers never do the same work twice.
 */
export const RUNNERS: readonly BackgroundRunner[] = [deadlineRunner, webhookDispatcher, payoutRunner, checkoutRunner, emailRunner, listCountFolding, tableMaintenance];

const holder = globalThis as typeof globalThis & { __escrowRunners?: Promise<RunningRunner[]>; __escrowRunnersStopped?: Promise<void> };

/**
 * Starts every runner once per server process, however often this module is loaded (Next's bundles and the
 * production server each load their own copy). They stop on SIGTERM/SIGINT alongside whatever else handles the
 * signal (scripts/serve.ts); with nothing else listening, the signal is raised again so the process still ends.
 */
export function startRunners(ctx: RunnerContext): Promise<RunningRunner[]> {
  if (holder.__escrowRunners) return holder.__escrowRunners;
  const settings = env();
  holder.__escrowRunners = Promise.all(RUNNERS.map((runner) => ('start' in runner ? runner.start(ctx) : startPolled(runner, ctx, settings)))).then((started) =>
    started.filter((running) => running !== undefined),
  );
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void stopRunners();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
  return holder.__escrowRunners;
}

/** Stops the runners this process started (none: nothing to do); asking twice waits for the same stop. */
export function stopRunners(): Promise<void> {
  const started = holder.__escrowRunners;
  if (!started) return Promise.resolve();
  holder.__escrowRunnersStopped ??= started.then((running) => Promise.all(running.map((r) => r.stop()))).then(() => undefined);
  return holder.__escrowRunnersStopped;
}
