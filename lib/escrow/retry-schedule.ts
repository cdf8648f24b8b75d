/**
 * When a failed webhook delivery is tried again (docs/decisions.md §9): exponential backoff from a base
 * (30 s × 2^(failures − 1)), capped, with ±20 % jitter so receivers coming back from an outage are
 * not hit by every queued delivery in the same second; retried until 3 days after the event, then
 * given up. Pure: the clock and the random number come in as arguments.
 */

export const RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;
export const DEFAULT_RETRY_BASE_MS = 30_000;
export const DEFAULT_RETRY_CAP_MS = 6 * 60 * 60 * 1000;
const JITTER = 0.2;

export type RetryOptions = { baseMs?: number; capMs?: number; windowMs?: number };

/** The wait after `failures` failed attempts (1 after the first), before jitter; never above the cap. */
export function backoffMs(failures: number, opts: RetryOptions = {}): number {
  const base = opts.baseMs ?? DEFAULT_RETRY_BASE_MS;
  const cap = opts.capMs ?? DEFAULT_RETRY_CAP_MS;
  if (!Number.isInteger(failures) || failures < 1) throw new Error('failures counts from 1');
  // 2^52 already exceeds any cap; stop doubling before the number stops being exact.
  return Math.min(cap, base * 2 ** Math.min(failures - 1, 52));
}

/** `random` in [0, 1): spreads the wait over ±20 %, still never above the cap. */
export function jitteredBackoffMs(failures: number, random: number, opts: RetryOptions = {}): number {
  const wait = backoffMs(failures, opts);
  const spread = 1 - JITTER + 2 * JITTER * Math.min(Math.max(random, 0), 1);
  return Math.max(1, Math.min(opts.capMs ?? DEFAULT_RETRY_CAP_MS, Math.round(wait * spread)));
}

export type RetryDecision = { retry: true; at: Date } | { retry: false; reason: string };

/**
 * After a failed attempt: when to try again, or that the 3-day window after the event has run out.
 * The last retry is moved up to the window's end rather than dropped.
 */
export function nextRetry(a: { failures: number; eventCreatedAt: Date; now: Date; random: number } & RetryOptions): RetryDecision {
  const deadline = a.eventCreatedAt.getTime() + (a.windowMs ?? RETRY_WINDOW_MS);
  const now = a.now.getTime();
  if (now >= deadline) return { retry: false, reason: `gave up after ${a.failures} attempt${a.failures === 1 ? '' : 's'}: the retry window after the event has ended` };
  return { retry: true, at: new Date(Math.min(now + jitteredBackoffMs(a.failures, a.random, a), deadline)) };
}
