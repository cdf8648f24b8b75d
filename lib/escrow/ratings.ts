/** Ratings (docs/decisions.md §13): after a transaction is COMPLETED, each party rates the other once, 1 to 5. Pure. */
import type { PartyRole, TransactionStatus } from './milestone-machine';

export const RATING_SCORES = [1, 2, 3, 4, 5] as const;

export type RatingState = { status: TransactionStatus; hasBuyerRated: boolean; hasSellerRated: boolean };

export function decideRating(t: RatingState, by: PartyRole): { ok: true } | { ok: false; message: string } {
  if (t.status !== 'COMPLETED') return { ok: false, message: `A transaction can be rated once it is completed; it is ${t.status}.` };
  if (by === 'buyer' ? t.hasBuyerRated : t.hasSellerRated) return { ok: false, message: `The ${by} has already rated this transaction.` };
  return { ok: true };
}

/** A user's `rating`: the average of the scores others gave them (their sum and count), to one decimal. */
export function ratingSummary(sum: number, count: number): { average: number | null; count: number } {
  if (count === 0) return { average: null, count: 0 };
  return { average: Math.round((10 * sum) / count) / 10, count };
}
