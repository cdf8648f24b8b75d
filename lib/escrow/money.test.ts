import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basisPointsOf, formatNaira, koboToNaira, MAX_NAIRA_AMOUNT, nairaText, parseNaira } from './money';

describe('parseNaira', () => {
  it('turns naira with up to 2 decimals into integer kobo without float drift', () => {
    expect(parseNaira(0)).toEqual({ ok: true, kobo: 0 });
    expect(parseNaira(1)).toEqual({ ok: true, kobo: 100 });
    expect(parseNaira(0.1)).toEqual({ ok: true, kobo: 10 });
    expect(parseNaira(0.29)).toEqual({ ok: true, kobo: 29 }); // 0.29 * 100 = 28.999999999999996
    expect(parseNaira(1234.56)).toEqual({ ok: true, kobo: 123_456 });
    expect(parseNaira(MAX_NAIRA_AMOUNT)).toEqual({ ok: true, kobo: MAX_NAIRA_AMOUNT * 100 });
  });

  it('refuses fractions of a kobo, negatives, non-finite, non-numbers and absurd sizes', () => {
    for (const bad of [0.001, 10.005, -1, -0.01, Number.NaN, Infinity, -Infinity, '100', null, MAX_NAIRA_AMOUNT + 1]) {
      expect(parseNaira(bad).ok, String(bad)).toBe(false);
    }
  });

  it('refuses amounts below one kobo instead of reading them as ₦0, and sub-kobo tails on whole amounts', () => {
    for (const bad of [1e-9, 5e-324, Number.MIN_VALUE, 0.004, 1.000000001, 1000.0000001]) {
      expect(parseNaira(bad).ok, String(bad)).toBe(false);
    }
    expect(parseNaira(1e-9)).toEqual({ ok: false, reason: expect.stringMatching(/less than one kobo/) });
    expect(parseNaira(-0)).toEqual({ ok: true, kobo: 0 });
  });

  it('reads every whole number of kobo written as naira (k / 100) back as exactly k', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_NAIRA_AMOUNT * 100 }), (k) => {
        expect(parseNaira(k / 100)).toEqual({ ok: true, kobo: k });
      }),
      { numRuns: 20_000 },
    );
    for (const naira of [0.29, 19.99, 0.1 + 0.2, 99_999_999_999.99, 1.15, 4.35]) {
      expect(parseNaira(naira).ok, String(naira)).toBe(true);
    }
  });
});

describe('koboToNaira and formatNaira', () => {
  it('round-trips and formats for people', () => {
    expect(koboToNaira(123_456)).toBe(1234.56);
    expect(koboToNaira(10)).toBe(0.1);
    expect(formatNaira(123_456)).toBe('₦1,234.56');
    expect(formatNaira(0)).toBe('₦0.00');
  });

  it('nairaText always has two decimals and reads back as the same amount', () => {
    expect([nairaText(250_050), nairaText(-5), nairaText(0), nairaText(-100)]).toEqual(['2500.50', '-0.05', '0.00', '-1.00']);
    fc.assert(
      fc.property(fc.integer({ min: -MAX_NAIRA_AMOUNT * 100, max: MAX_NAIRA_AMOUNT * 100 }), (kobo) => {
        expect(nairaText(kobo)).toMatch(/^-?\d+\.\d\d$/);
        expect(Number(nairaText(kobo))).toBe(koboToNaira(kobo) || 0);
      }),
    );
  });
});

describe('basisPointsOf', () => {
  it('rounds half up at the kobo', () => {
    expect(basisPointsOf(50, 100)).toBe(1); // 0.5 kobo
    expect(basisPointsOf(49, 100)).toBe(0);
    expect(basisPointsOf(1_000_000, 150)).toBe(15_000);
  });
});
