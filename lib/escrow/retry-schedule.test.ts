import { describe, expect, it } from 'vitest';
import { backoffMs, DEFAULT_RETRY_CAP_MS, jitteredBackoffMs, nextRetry, RETRY_WINDOW_MS } from './retry-schedule';

const MIN = 60_000;
const HOUR = 60 * MIN;
const event = new Date('2026-11-21T09:00:00.000Z');
const at = (ms: number) => new Date(event.getTime() + ms);

describe('backoffMs', () => {
  it('doubles from 30 s: 30 s, 1 min, 2 min, 4 min …', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n))).toEqual([30_000, MIN, 2 * MIN, 4 * MIN, 8 * MIN]);
  });

  it('is capped at 6 hours, even after very many failures', () => {
    expect(DEFAULT_RETRY_CAP_MS).toBe(6 * HOUR);
    expect(backoffMs(11)).toBe(6 * HOUR);
    expect(backoffMs(10_000)).toBe(6 * HOUR);
  });

  it('takes another base and cap (short waits in tests)', () => {
    expect([1, 2, 3].map((n) => backoffMs(n, { baseMs: 50 }))).toEqual([50, 100, 200]);
    expect(backoffMs(5, { baseMs: 50, capMs: 300 })).toBe(300);
  });

  it('counts failures from 1', () => {
    expect(() => backoffMs(0)).toThrow();
    expect(() => backoffMs(1.5)).toThrow();
  });
});

describe('jitteredBackoffMs', () => {
  it('spreads the wait over ±20 %', () => {
    expect(jitteredBackoffMs(1, 0)).toBe(24_000);
    expect(jitteredBackoffMs(1, 0.5)).toBe(30_000);
    expect(jitteredBackoffMs(1, 0.999999)).toBe(36_000);
  });

  it('never goes above the cap, nor below 1 ms', () => {
    expect(jitteredBackoffMs(20, 0.99)).toBe(DEFAULT_RETRY_CAP_MS);
    expect(jitteredBackoffMs(1, 0, { baseMs: 1 })).toBe(1);
  });

  it('stays within ±20 % of the backoff for any random number', () => {
    for (let failures = 1; failures <= 12; failures++) {
      for (const random of [0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.9999]) {
        const wait = jitteredBackoffMs(failures, random);
        expect(wait).toBeGreaterThanOrEqual(Math.floor(backoffMs(failures) * 0.8));
        expect(wait).toBeLessThanOrEqual(Math.min(DEFAULT_RETRY_CAP_MS, Math.ceil(backoffMs(failures) * 1.2)));
      }
    }
  });
});

describe('nextRetry', () => {
  it('schedules the next attempt after the jittered backoff from now', () => {
    expect(nextRetry({ failures: 1, eventCreatedAt: event, now: at(1000), random: 0.5 })).toEqual({ retry: true, at: at(31_000) });
    expect(nextRetry({ failures: 3, eventCreatedAt: event, now: at(10 * MIN), random: 0.5 })).toEqual({ retry: true, at: at(12 * MIN) });
  });

  it('keeps retrying until 3 days after the event, moving the last try up to the end of the window', () => {
    expect(RETRY_WINDOW_MS).toBe(72 * HOUR);
    const late = nextRetry({ failures: 15, eventCreatedAt: event, now: at(RETRY_WINDOW_MS - HOUR), random: 0.5 });
    expect(late).toEqual({ retry: true, at: at(RETRY_WINDOW_MS) });
  });

  it('gives up once the window has ended', () => {
    const done = nextRetry({ failures: 20, eventCreatedAt: event, now: at(RETRY_WINDOW_MS), random: 0.5 });
    expect(done.retry).toBe(false);
    if (!done.retry) expect(done.reason).toMatch(/20 attempts/);
    expect(nextRetry({ failures: 1, eventCreatedAt: event, now: at(RETRY_WINDOW_MS + 1), random: 0 }).retry).toBe(false);
  });

  it('a full schedule at the defaults makes about 20 attempts in the 3 days, each later than the one before', () => {
    let now = event.getTime();
    const attempts = [now];
    for (let failures = 1; ; failures++) {
      const next = nextRetry({ failures, eventCreatedAt: event, now: new Date(now), random: 0.5 });
      if (!next.retry) break;
      expect(next.at.getTime()).toBeGreaterThan(now);
      now = next.at.getTime();
      attempts.push(now);
    }
    expect(attempts.length).toBeGreaterThan(15);
    expect(attempts.length).toBeLessThan(30);
    expect(attempts.at(-1)).toBe(event.getTime() + RETRY_WINDOW_MS);
  });

  it('takes a shorter window and base (tests)', () => {
    expect(nextRetry({ failures: 1, eventCreatedAt: event, now: at(100), random: 0.5, baseMs: 50, windowMs: 1000 })).toEqual({ retry: true, at: at(150) });
    expect(nextRetry({ failures: 2, eventCreatedAt: event, now: at(1000), random: 0.5, baseMs: 50, windowMs: 1000 }).retry).toBe(false);
  });
});
