/**
 * Money is integer kobo inside the code (docs/decisions.md §4). Naira numbers exist only at the JSON edge,
 * and these two functions are the only crossing points.
 */

export type Kobo = number;

/** ₦100,000,000,000 — well inside Number.MAX_SAFE_INTEGER once in kobo, and far above any real milestone. */
export const MAX_NAIRA_AMOUNT = 100_000_000_000;

export type NairaParseResult = { ok: true; kobo: Kobo } | { ok: false; reason: string };

export function parseNaira(value: unknown): NairaParseResult {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return { ok: false, reason: 'must be a finite number of naira' };
  }
  if (value < 0) return { ok: false, reason: 'must not be negative' };
  if (value > MAX_NAIRA_AMOUNT) {
    return { ok: false, reason: `must not exceed ${MAX_NAIRA_AMOUNT.toLocaleString('en-NG')} naira` };
  }
  // + 0 turns -0 (a JSON -0) into 0.
  const kobo = Math.round(value * 100) + 0;
  // A non-zero amount too small to round to a kobo (1e-9, 5e-324) is not ₦0.
  if (kobo === 0 && value !== 0) return { ok: false, reason: 'is less than one kobo: send 0 or at least 0.01' };
  // Binary floats cannot hold 0.1 exactly, so "at most 2 decimals" allows the rounding error of
  // value * 100 (a few units in the last place at this magnitude) and nothing more: 1.000000001 is refused.
  if (Math.abs(value * 100 - kobo) > Math.max(kobo, 1) * 8 * Number.EPSILON) {
    return { ok: false, reason: 'must have at most 2 decimal places (kobo)' };
  }
  return { ok: true, kobo };
}

export function koboToNaira(kobo: Kobo): number {
  return Math.round(kobo) / 100;
}

/** Naira as plain text with two decimals ("-2500.50"), for a CSV a spreadsheet reads as a number. */
export function nairaText(kobo: Kobo): string {
  const whole = Math.abs(Math.round(kobo));
  return `${kobo < 0 ? '-' : ''}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}

// One formatter for the process: toLocaleString builds a new one on every call, and every write's log lines format amounts.
const NAIRA_DIGITS = new Intl.NumberFormat('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "₦1,234.50" for people; the API never sends this. */
export function formatNaira(kobo: Kobo): string {
  return `₦${NAIRA_DIGITS.format(koboToNaira(kobo))}`;
}

/** Rounds half away from zero at the kobo, the way a person checks a fee by hand. */
export function basisPointsOf(kobo: Kobo, basisPoints: number): Kobo {
  return Math.floor((kobo * basisPoints + 5_000) / 10_000);
}
