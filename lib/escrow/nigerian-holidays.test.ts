import { describe, expect, it } from 'vitest';
import { holidaySet, NIGERIAN_PUBLIC_HOLIDAYS } from './nigerian-holidays';

// Anonymous Gregorian (Meeus/Jones/Butcher) algorithm, independent of the hand-entered list.
function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
}

function shift(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

const YEARS = [2025, 2026, 2027, 2028];

describe('NIGERIAN_PUBLIC_HOLIDAYS', () => {
  it('is a sorted, duplicate-free list of valid dates for 2025-2028', () => {
    expect([...NIGERIAN_PUBLIC_HOLIDAYS]).toEqual([...new Set(NIGERIAN_PUBLIC_HOLIDAYS)].sort());
    expect(() => holidaySet(NIGERIAN_PUBLIC_HOLIDAYS)).not.toThrow();
    for (const date of NIGERIAN_PUBLIC_HOLIDAYS) expect(YEARS).toContain(Number(date.slice(0, 4)));
    expect(Object.isFrozen(NIGERIAN_PUBLIC_HOLIDAYS)).toBe(true);
  });

  it('has every fixed holiday, with a weekday off when it lands on a weekend', () => {
    const list = new Set(NIGERIAN_PUBLIC_HOLIDAYS);
    for (const year of YEARS) {
      for (const md of ['01-01', '05-01', '06-12', '10-01', '12-25', '12-26']) {
        expect(list.has(`${year}-${md}`), `${year}-${md}`).toBe(true);
      }
    }
    expect(list.has('2026-12-28')).toBe(true); // Boxing Day 2026 is a Saturday
    expect(list.has('2027-05-03')).toBe(true); // Workers' Day 2027 is a Saturday
    expect(list.has('2027-06-14')).toBe(true); // Democracy Day 2027 is a Saturday
    expect(['2027-12-27', '2027-12-28'].every((d) => list.has(d))).toBe(true); // Sat/Sun Christmas
    expect(list.has('2028-01-03')).toBe(true); // New Year 2028 is a Saturday
    expect(list.has('2028-10-02')).toBe(true); // Independence Day 2028 is a Sunday
  });

  it('puts Good Friday and Easter Monday around the computed Easter Sunday', () => {
    const list = new Set(NIGERIAN_PUBLIC_HOLIDAYS);
    for (const year of YEARS) {
      const easter = easterSunday(year);
      expect(list.has(shift(easter, -2)), `Good Friday ${year}`).toBe(true);
      expect(list.has(shift(easter, 1)), `Easter Monday ${year}`).toBe(true);
    }
    expect(easterSunday(2025)).toBe('2025-04-20');
  });

  it('uses the dates the Federal Government declared for the 2025 Islamic holidays', () => {
    const list = new Set(NIGERIAN_PUBLIC_HOLIDAYS);
    for (const date of ['2025-03-31', '2025-04-01', '2025-06-06', '2025-06-09', '2025-09-05']) {
      expect(list.has(date), date).toBe(true);
    }
  });

  it('has five Islamic holiday days a year (2 Eid-el-Fitr, 2 Eid-el-Kabir, 1 Id-el-Maulud), all on weekdays', () => {
    for (const year of YEARS) {
      const easter = easterSunday(year);
      const christian = new Set([shift(easter, -2), shift(easter, 1)]);
      const fixed = /-(01-0[1-3]|05-0[1-3]|06-1[2-4]|10-0[1-2]|12-2[5-8])$/;
      const others = NIGERIAN_PUBLIC_HOLIDAYS.filter(
        (d) => d.startsWith(`${year}-`) && !christian.has(d) && !fixed.test(d),
      );
      expect(others, String(year)).toHaveLength(5);
      for (const d of others) expect([0, 6], d).not.toContain(weekday(d));
    }
  });
});

describe('holidaySet', () => {
  it('builds a set for lookups', () => {
    const set = holidaySet(['2025-12-25', '2025-12-26']);
    expect(set.has('2025-12-25')).toBe(true);
    expect(set.has('2025-12-27')).toBe(false);
    expect(holidaySet([]).size).toBe(0);
  });

  it('throws on anything that is not a real YYYY-MM-DD date', () => {
    for (const bad of ['2025-02-30', '2025-13-01', '2025-1-1', '25-01-01', '2025/01/01', '2025-01-01T00:00', '', 'christmas']) {
      expect(() => holidaySet([bad]), bad).toThrow(RangeError);
    }
    expect(() => holidaySet(['2028-02-29'])).not.toThrow(); // leap day
    expect(() => holidaySet(['2027-02-29'])).toThrow(RangeError);
  });
});
