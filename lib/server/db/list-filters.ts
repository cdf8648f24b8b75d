import 'server-only';
import { and, gte, lt, lte, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** Lagos is UTC+1 all year (lib/escrow/business-days.ts): a Lagos day starts at 23:00 UTC the day before. */
function lagosDayStart(day: string): Date {
  return new Date(`${day}T00:00:00.000+01:00`);
}

/** Created on or after `from` and on or before `to`, both Lagos days (YYYY-MM-DD). */
export function createdWithin(column: PgColumn, from: string | undefined, to: string | undefined): SQL | undefined {
  return and(
    from ? gte(column, lagosDayStart(from)) : undefined,
    to ? lt(column, new Date(lagosDayStart(to).getTime() + 24 * 60 * 60 * 1000)) : undefined,
  );
}

/** An amount in kobo between naira `min` and `max`, both included. */
export function amountWithin(column: PgColumn, min: number | undefined, max: number | undefined): SQL | undefined {
  return and(min !== undefined ? gte(column, Math.round(min * 100)) : undefined, max !== undefined ? lte(column, Math.round(max * 100)) : undefined);
}

/** A case-insensitive "contains" pattern for ilike, with the pattern's own characters escaped. */
export function containsPattern(text: string | undefined): string | undefined {
  return text ? `%${text.replace(/[%_\\]/g, (c) => `\\${c}`)}%` : undefined;
}
