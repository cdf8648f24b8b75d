/**
 * Calendar months as Lagos counts them (Africa/Lagos is UTC+1 all year, no daylight saving), for
 * reports "this month" and the monthly series. Pure: `now` comes in (a client's clock).
 */
const LAGOS_OFFSET_MS = 60 * 60_000;

export type LagosMonth = { month: string; startsAt: Date; endsAt: Date };

function monthStart(year: number, monthIndex: number): Date {
  return new Date(Date.UTC(year, monthIndex, 1) - LAGOS_OFFSET_MS);
}

/** The `count` Lagos months ending with the one `now` falls in, oldest first: each [startsAt, endsAt). */
export function lagosMonths(now: Date, count: number): LagosMonth[] {
  const lagos = new Date(now.getTime() + LAGOS_OFFSET_MS);
  const year = lagos.getUTCFullYear();
  const month = lagos.getUTCMonth();
  const out: LagosMonth[] = [];
  for (let back = count - 1; back >= 0; back--) {
    const startsAt = monthStart(year, month - back);
    const endsAt = monthStart(year, month - back + 1);
    const label = new Date(startsAt.getTime() + LAGOS_OFFSET_MS);
    out.push({ month: `${label.getUTCFullYear()}-${String(label.getUTCMonth() + 1).padStart(2, '0')}`, startsAt, endsAt });
  }
  return out;
}
