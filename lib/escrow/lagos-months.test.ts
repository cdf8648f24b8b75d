import { describe, expect, it } from 'vitest';
import { lagosMonthOf, lagosMonths, monthDays } from './lagos-months';

describe('lagosMonths', () => {
  it('counts the month in Lagos: 23:30 UTC on the last day is already the next month there', () => {
    const [month] = lagosMonths(new Date('2026-11-30T23:30:00Z'), 1);
    expect(month).toEqual({ month: '2026-12', startsAt: new Date('2026-11-30T23:00:00Z'), endsAt: new Date('2026-12-31T23:00:00Z') });
  });

  it('gives six months oldest first, across a year end, each starting where the last ended', () => {
    const months = lagosMonths(new Date('2027-02-10T12:00:00Z'), 6);
    expect(months.map((m) => m.month)).toEqual(['2026-09', '2026-10', '2026-11', '2026-12', '2027-01', '2027-02']);
    for (let i = 1; i < months.length; i++) expect(months[i]!.startsAt).toEqual(months[i - 1]!.endsAt);
    expect(months[0]!.startsAt).toEqual(new Date('2026-08-31T23:00:00Z'));
  });
});

describe('monthDays', () => {
  it('runs from the first to the last day, leap years included', () => {
    expect(monthDays('2028-02')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthDays('2026-02')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(monthDays('2026-12')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('refuses what is not a month', () => {
    for (const bad of ['2026-13', '2026-00', '2026-1', 'november', '2026-11-01']) expect(monthDays(bad)).toBeNull();
  });
});

describe('lagosMonthOf', () => {
  it('is the month in Lagos, an hour ahead of UTC', () => {
    expect(lagosMonthOf(new Date('2026-11-30T23:30:00Z'))).toBe('2026-12');
    expect(lagosMonthOf(new Date('2026-11-30T22:59:00Z'))).toBe('2026-11');
  });
});
