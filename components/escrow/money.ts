import { formatNaira } from '@/lib/escrow/money';

/** The API sends naira numbers with at most 2 decimals; lib/escrow formats kobo. */
export function naira(amount: number): string {
  return formatNaira(Math.round(amount * 100));
}

export function dateTime(iso: string): string {
  return new Date(iso).toLocaleString('en-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' });
}

export function day(iso: string): string {
  return new Date(iso).toLocaleDateString('en-NG', { dateStyle: 'medium', timeZone: 'Africa/Lagos' });
}
