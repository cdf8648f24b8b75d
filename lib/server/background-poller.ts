import 'server-only';
import { log } from './logger';

const holder = globalThis as typeof globalThis & { __escrowPollers?: Map<string, NodeJS.Timeout> };

/**
 * Runs `tick` every `intervalMs` in the background of this server process, never two ticks at once, and
 * logs a failure instead of stopping. Started once per name, however often the module is loaded.
 */
export function startPoller(name: string, intervalMs: number, tick: () => Promise<void>): void {
  const pollers = (holder.__escrowPollers ??= new Map());
  if (pollers.has(name)) return;
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      await tick();
    } catch (error) {
      log.error({ msg: `${name} failed`, error });
    } finally {
      running = false;
    }
  }, intervalMs);
  timer.unref();
  pollers.set(name, timer);
}
