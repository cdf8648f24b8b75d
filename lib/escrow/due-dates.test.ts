import { describe, expect, it } from 'vitest';
import { pastDueDates } from './due-dates';

describe('pastDueDates', () => {
  const now = new Date('2026-03-10T12:00:00.000Z');

  it('names every due date not later than now, by position', () => {
    const dates = ['2026-03-10T11:59:59.999Z', '2026-03-10T12:00:00.000Z', '2026-03-10T12:00:00.001Z', '2025-12-31T23:00:00.000Z'].map((d) => new Date(d));
    expect(pastDueDates(dates, now)).toEqual([0, 1, 3]);
  });

  it('accepts due dates all in the future, and none at all', () => {
    expect(pastDueDates([new Date('2026-03-11T00:00:00.000Z')], now)).toEqual([]);
    expect(pastDueDates([], now)).toEqual([]);
  });

  it('measures against the clock it is given (a test clock ahead of the wall clock)', () => {
    const due = new Date('2026-03-12T00:00:00.000Z');
    expect(pastDueDates([due], now)).toEqual([]);
    expect(pastDueDates([due], new Date(now.getTime() + 3 * 86_400_000))).toEqual([0]);
  });
});
