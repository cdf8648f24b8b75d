/**
 * What each party may do to a transaction as a whole now (its `allowed_actions`): end it early
 * (ending.ts) and, once it is completed, rate the other party (ratings.ts). Pure.
 */
import { allowedEndingActions, ENDING_ACTIONS, type EndingState } from './ending';
import { decideRating, type RatingState } from './ratings';

export const TRANSACTION_ACTIONS = [...ENDING_ACTIONS, 'rate'] as const;
export type TransactionAction = (typeof TRANSACTION_ACTIONS)[number];

export function allowedTransactionActions(ending: EndingState, rating: RatingState, now: Date): { buyer: TransactionAction[]; seller: TransactionAction[] } {
  const allowed: { buyer: TransactionAction[]; seller: TransactionAction[] } = allowedEndingActions(ending, now);
  for (const party of ['buyer', 'seller'] as const) if (decideRating(rating, party).ok) allowed[party].push('rate');
  return allowed;
}
