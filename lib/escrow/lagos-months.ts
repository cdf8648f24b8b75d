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

/**
 * A month ("2026-11") as a statement's period of Lagos days, first to last (the statement's `to` day is included,
 * docs/decisions.md §18); null for anything that is not a month.
 */
export function monthDays(month: string): { from: string; to: string } | null {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!match) return null;
  const lastDay = new Date(Date.UTC(Number(match[1]), Number(match[2]), 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(lastDay).padStart(2, '0')}` };
}

/** The Lagos month an instant falls in ("2026-12" for 23:30 UTC on 30 November). */
export function lagosMonthOf(at: Date): string {
  return new Date(at.getTime() + LAGOS_OFFSET_MS).toISOString().slice(0, 7);
}
