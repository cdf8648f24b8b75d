import 'server-only';
import { isDatabaseDown, logBackgroundFailure, noteDatabaseAnswered } from './db/availability';
import type { Database, Db } from './db/client';
import type { Env } from './env';

/** What every background runner is handed: the server's database and which kind it is. */
export type RunnerContext = { db: Db; driver: Database['driver'] };

/** A runner that stops when asked, letting work in flight finish for a few seconds at most. */
export type RunningRunner = { stop: () => Promise<void> };

/**
 * A background runner (lib/server/runners.ts lists them): `runOnce` every `intervalMs`, never two passes
 * at once, a failure logged instead of stopping it. `setUp` runs once before the first pass; false leaves
 * the runner off on this server.
 */
export type PolledRunner = {
  name: string;
  intervalMs: (settings: Env) => number;
  /** Besides every interval: a pass as soon as `wake` is called, or right after the pass under way. */
  wakeOn?: (wake: () => void) => void;
  setUp?: (ctx: RunnerContext) => Promise<boolean> | boolean | void;
  runOnce: (ctx: RunnerContext) => Promise<void>;
};

/**
 * A runner that schedules its own passes (the webhook dispatcher claims again at once when a claim came
 * back full or a send finished, else a poll later), so it is started and stopped rather than polled.
 */
export type SelfScheduledRunner = { name: string; start: (ctx: RunnerContext) => RunningRunner };

export type BackgroundRunner = PolledRunner | SelfScheduledRunner;

/** How long a stopping runner's pass in progress is waited for. */
const STOP_GRACE_MS = 5_000;
/** While the database is down, a runner's passes come at least this far apart, so it is back within as long. */
const OUTAGE_PASS_MS = 2_000;

export async function startPolled(runner: PolledRunner, ctx: RunnerContext, settings: Env): Promise<RunningRunner | undefined> {
  if ((await runner.setUp?.(ctx)) === false) return undefined;
  let pass: Promise<void> | undefined;
  let lastPassAt = 0;
  let woken = false;
  let stopped = false;
  const runPass = () => {
    if (stopped || pass || (isDatabaseDown() && Date.now() - lastPassAt < OUTAGE_PASS_MS)) return;
    lastPassAt = Date.now();
    woken = false;
    pass = runner
      .runOnce(ctx)
      .then(() => noteDatabaseAnswered())
      .catch((error: unknown) => logBackgroundFailure({ msg: `${runner.name} failed` }, error))
      .finally(() => {
        pass = undefined;
        if (woken) runPass();
      });
  };
  const timer = setInterval(runPass, runner.intervalMs(settings));
  timer.unref();
  runner.wakeOn?.(() => {
    woken = true;
    runPass();
  });
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      if (pass) await Promise.race([pass, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
    },
  };
}
