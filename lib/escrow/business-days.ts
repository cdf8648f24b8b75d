// Africa/Lagos is UTC+1 all year with no daylight saving, so Lagos wall-clock time is a fixed
// shift of UTC and a Lagos day is always exactly 24 hours. That keeps this free of time zone data
// and of the host's TZ.
const LAGOS_OFFSET_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

function timeOf(instant: Date, label: string): number {
  const ms = instant instanceof Date ? instant.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw new RangeError(`${label} must be a valid Date.`);
  return ms;
}

function lagosDateOf(ms: number): string {
  return new Date(ms + LAGOS_OFFSET_MS).toISOString().slice(0, 10);
}

function isBusinessMs(ms: number, holidays: ReadonlySet<string>): boolean {
  const weekday = new Date(ms + LAGOS_OFFSET_MS).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !holidays.has(lagosDateOf(ms));
}

export function lagosDate(instant: Date): string {
  return lagosDateOf(timeOf(instant, 'instant'));
}

export function isBusinessDay(instant: Date, holidays: ReadonlySet<string>): boolean {
  return isBusinessMs(timeOf(instant, 'instant'), holidays);
}

export function addBusinessDays(start: Date, days: number, holidays: ReadonlySet<string>): Date {
  if (!Number.isSafeInteger(days) || days < 0) {
    throw new RangeError(`days must be a non-negative integer, got ${days}.`);
  }
  let ms = timeOf(start, 'start');
  // A deadline set on a Saturday or a holiday should not silently eat into the counted days, so
  // the count starts from the next business day at the same time of day.
  while (!isBusinessMs(ms, holidays)) ms += DAY_MS;
  for (let remaining = days; remaining > 0; ) {
    ms += DAY_MS;
    if (isBusinessMs(ms, holidays)) remaining -= 1;
  }
  return new Date(ms);
}

export function addCalendarDays(start: Date, days: number): Date {
  if (!Number.isSafeInteger(days)) throw new RangeError(`days must be an integer, got ${days}.`);
  return new Date(timeOf(start, 'start') + days * DAY_MS);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "24 Nov 2026, 10:18 WAT": a deadline as a person in Nigeria reads it, for log lines. */
export function formatLagosDateTime(instant: Date): string {
  const lagos = new Date(instant.getTime() + 60 * 60 * 1000);
  const hh = String(lagos.getUTCHours()).padStart(2, '0');
  const mm = String(lagos.getUTCMinutes()).padStart(2, '0');
  return `${lagos.getUTCDate()} ${MONTHS[lagos.getUTCMonth()]} ${lagos.getUTCFullYear()}, ${hh}:${mm} WAT`;
}
