import { describe, expect, it } from 'vitest';
import { lagosMonths } from './lagos-months';

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
