import { formatNaira } from '@/lib/escrow/money';

/** The API sends naira numbers with at most 2 decimals; lib/escrow formats kobo. */
export function naira(amount: number): string {
  return formatNaira(Math.round(amount * 100));
}

/** Lagos time, always labelled: a browser elsewhere must not read it as its own (Lagos keeps WAT all year). */
export function dateTime(iso: string): string {
  return `${new Date(iso).toLocaleString('en-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' })} WAT`;
}

export function day(iso: string): string {
  return new Date(iso).toLocaleDateString('en-NG', { dateStyle: 'medium', timeZone: 'Africa/Lagos' });
}
