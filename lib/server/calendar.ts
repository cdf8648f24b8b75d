import 'server-only';
import { holidaySet } from '@/lib/escrow/nigerian-holidays';
import { NIGERIAN_PUBLIC_HOLIDAYS } from '@/lib/escrow/nigerian-holidays';
import { env } from './env';

let cached: ReadonlySet<string> | undefined;

/** Holidays for business-day deadlines: ESCROW_HOLIDAYS (comma-separated YYYY-MM-DD) or the shipped Nigerian list. */
export function holidays(): ReadonlySet<string> {
  if (!cached) {
    const configured = env().ESCROW_HOLIDAYS;
    cached = holidaySet(configured ? configured.split(',').map((d) => d.trim()).filter(Boolean) : NIGERIAN_PUBLIC_HOLIDAYS);
  }
  return cached;
}
