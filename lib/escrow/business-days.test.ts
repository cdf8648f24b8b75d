import { describe, expect, it } from 'vitest';
import { addBusinessDays, addCalendarDays, formatLagosDateTime, isBusinessDay, lagosDate } from './business-days';
import { holidaySet, NIGERIAN_PUBLIC_HOLIDAYS } from './nigerian-holidays';

const NG = holidaySet(NIGERIAN_PUBLIC_HOLIDAYS);
const NONE: ReadonlySet<string> = new Set();

// Lagos wall-clock time to an instant, so expectations read the way a Nigerian user would.
function lagos(local: string): Date {
  return new Date(`${local}+01:00`);
}

describe('lagosDate', () => {
  it('is the calendar date in Lagos, one hour ahead of UTC', () => {
    expect(lagosDate(new Date('2025-03-07T22:59:59Z'))).toBe('2025-03-07');
    expect(lagosDate(new Date('2025-03-07T23:00:00Z'))).toBe('2025-03-08');
    expect(lagosDate(new Date('2025-12-31T23:30:00Z'))).toBe('2026-01-01');
  });

  it('does not shift in July, because Lagos has no daylight saving', () => {
    expect(lagosDate(new Date('2025-07-15T23:00:00Z'))).toBe('2025-07-16');
  });

  it('refuses an invalid Date', () => {
    expect(() => lagosDate(new Date('nope'))).toThrow(RangeError);
  });
});

describe('isBusinessDay', () => {
  it('is Monday to Friday in Lagos', () => {
    expect(isBusinessDay(lagos('2025-03-03T09:00:00'), NONE)).toBe(true); // Monday
    expect(isBusinessDay(lagos('2025-03-07T17:00:00'), NONE)).toBe(true); // Friday
    expect(isBusinessDay(lagos('2025-03-08T09:00:00'), NONE)).toBe(false); // Saturday
    expect(isBusinessDay(lagos('2025-03-09T09:00:00'), NONE)).toBe(false); // Sunday
  });

  it('follows the Lagos day, not the UTC day, around midnight', () => {
    // Friday 23:59:59 in Lagos: still Friday.
    expect(isBusinessDay(new Date('2025-03-07T22:59:59Z'), NONE)).toBe(true);
    // Still Friday in UTC, but already Saturday 00:00 in Lagos.
    expect(isBusinessDay(new Date('2025-03-07T23:00:00Z'), NONE)).toBe(false);
    // Sunday 23:30 UTC is Monday 00:30 in Lagos.
    expect(isBusinessDay(new Date('2025-03-09T23:30:00Z'), NONE)).toBe(true);
  });

  it('skips holidays by their Lagos date', () => {
    expect(isBusinessDay(lagos('2025-12-25T12:00:00'), NG)).toBe(false);
    expect(isBusinessDay(lagos('2025-12-25T12:00:00'), NONE)).toBe(true);
    // 23:30 UTC on Christmas Eve is already Christmas Day in Lagos.
    expect(isBusinessDay(new Date('2025-12-24T23:30:00Z'), NG)).toBe(false);
  });
});

describe('addBusinessDays', () => {
  it('keeps the Lagos time of day and skips the weekend', () => {
    expect(addBusinessDays(lagos('2025-03-06T14:30:00'), 1, NONE)).toEqual(lagos('2025-03-07T14:30:00'));
    expect(addBusinessDays(lagos('2025-03-07T14:30:00'), 1, NONE)).toEqual(lagos('2025-03-10T14:30:00'));
    expect(addBusinessDays(lagos('2025-03-07T14:30:00'), 5, NONE)).toEqual(lagos('2025-03-14T14:30:00'));
    expect(addBusinessDays(lagos('2025-03-03T09:00:00'), 10, NONE)).toEqual(lagos('2025-03-17T09:00:00'));
  });

  it('returns a business-day start unchanged for 0 days', () => {
    const start = lagos('2025-03-05T11:15:00');
    expect(addBusinessDays(start, 0, NG)).toEqual(start);
  });

  it('counts a weekend start from the next business day at the same time', () => {
    expect(addBusinessDays(lagos('2025-03-08T10:00:00'), 0, NONE)).toEqual(lagos('2025-03-10T10:00:00'));
    expect(addBusinessDays(lagos('2025-03-08T10:00:00'), 1, NONE)).toEqual(lagos('2025-03-11T10:00:00'));
    expect(addBusinessDays(lagos('2025-03-09T23:59:00'), 2, NONE)).toEqual(lagos('2025-03-12T23:59:00'));
  });

  it('treats a late Friday that is already Saturday in Lagos as a weekend start', () => {
    // 23:30 UTC Friday is 00:30 Saturday in Lagos: counting starts Monday 00:30.
    expect(addBusinessDays(new Date('2025-03-07T23:30:00Z'), 1, NONE)).toEqual(lagos('2025-03-11T00:30:00'));
    // 22:30 UTC Friday is 23:30 Friday in Lagos: one business day later is Monday 23:30.
    expect(addBusinessDays(new Date('2025-03-07T22:30:00Z'), 1, NONE)).toEqual(lagos('2025-03-10T23:30:00'));
  });

  it('runs through Christmas, Boxing Day and New Year', () => {
    const eve = lagos('2025-12-24T09:00:00'); // Wednesday
    expect(addBusinessDays(eve, 1, NG)).toEqual(lagos('2025-12-29T09:00:00'));
    expect(addBusinessDays(eve, 3, NG)).toEqual(lagos('2025-12-31T09:00:00'));
    expect(addBusinessDays(eve, 4, NG)).toEqual(lagos('2026-01-02T09:00:00'));
    // Starting on Christmas Day itself counts from Monday 29th.
    expect(addBusinessDays(lagos('2025-12-25T16:00:00'), 0, NG)).toEqual(lagos('2025-12-29T16:00:00'));
  });

  it('honours the weekday off when Boxing Day falls on a Saturday', () => {
    expect(addBusinessDays(lagos('2026-12-24T12:00:00'), 1, NG)).toEqual(lagos('2026-12-29T12:00:00'));
  });

  it('skips the Easter weekend', () => {
    // Thursday before Good Friday 2026 -> Tuesday after Easter Monday.
    expect(addBusinessDays(lagos('2026-04-02T10:00:00'), 1, NG)).toEqual(lagos('2026-04-07T10:00:00'));
    expect(addBusinessDays(lagos('2025-04-17T10:00:00'), 2, NG)).toEqual(lagos('2025-04-23T10:00:00'));
  });

  it('skips back-to-back Eid days', () => {
    // Eid-el-Kabir 2025: Friday 6 and Monday 9 June.
    expect(addBusinessDays(lagos('2025-06-05T08:00:00'), 1, NG)).toEqual(lagos('2025-06-10T08:00:00'));
  });

  it('always lands on a business day', () => {
    let start = lagos('2025-01-01T07:00:00');
    for (let i = 0; i < 400; i++) {
      const due = addBusinessDays(start, i % 7, NG);
      expect(isBusinessDay(due, NG)).toBe(true);
      start = addCalendarDays(start, 1);
    }
  });

  it('refuses negative, fractional or non-finite day counts and invalid dates', () => {
    const start = lagos('2025-03-03T09:00:00');
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => addBusinessDays(start, bad, NONE), String(bad)).toThrow(RangeError);
    }
    expect(() => addBusinessDays(new Date(Number.NaN), 1, NONE)).toThrow(RangeError);
  });
});

describe('addCalendarDays', () => {
  it('adds whole days, weekends and holidays included, keeping the time of day', () => {
    expect(addCalendarDays(lagos('2025-03-07T14:30:00'), 1)).toEqual(lagos('2025-03-08T14:30:00'));
    expect(addCalendarDays(lagos('2025-12-24T09:00:00'), 14)).toEqual(lagos('2026-01-07T09:00:00'));
    expect(addCalendarDays(lagos('2025-03-07T14:30:00'), 0)).toEqual(lagos('2025-03-07T14:30:00'));
  });

  it('does not mutate its argument', () => {
    const start = lagos('2025-03-07T14:30:00');
    addCalendarDays(start, 3);
    expect(start).toEqual(lagos('2025-03-07T14:30:00'));
  });

  it('refuses a fractional day count', () => {
    expect(() => addCalendarDays(lagos('2025-03-07T14:30:00'), 0.5)).toThrow(RangeError);
  });
});

describe('formatLagosDateTime', () => {
  it('writes the Lagos wall time (UTC+1) a person reads, across a day boundary', () => {
    expect(formatLagosDateTime(new Date('2026-11-24T09:18:30.465Z'))).toBe('24 Nov 2026, 10:18 WAT');
    expect(formatLagosDateTime(new Date('2026-12-31T23:30:00.000Z'))).toBe('1 Jan 2027, 00:30 WAT');
  });
});
