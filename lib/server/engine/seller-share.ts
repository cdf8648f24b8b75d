import 'server-only';
import { formatNaira, parseNaira } from '@/lib/escrow/money';
import { AppError } from '../app-error';
import { maxDisputeAmountKobo } from '../records/disputes';
import type { TransactionGraph } from '../records/transaction-graph/queries';

/** An amount of naira for the seller (a mediation proposal, a counter-offer, a refund or a partial acceptance), in kobo (400 when it is not whole kobo). */
export function sellerShareKobo(naira: number, field: string): number {
  const parsed = parseNaira(naira);
  if (!parsed.ok) throw new AppError('VALIDATION_ERROR', `${field} ${parsed.reason}`);
  return parsed.kobo;
}

/** Refuses a seller's share above what the disputed milestone can pay (docs/decisions.md §6). */
export function assertSellerShareInRange(graph: TransactionGraph, milestoneId: string, kobo: number, field: string): void {
  const max = maxDisputeAmountKobo(graph, milestoneId);
  if (kobo <= max) return;
  throw new AppError(
    'DISPUTE_AMOUNT_OUT_OF_RANGE',
    `${field} must be between ${formatNaira(0)} and ${formatNaira(max)}: it cannot exceed the transaction amount or the milestone payment held in escrow.`,
    [{ field, message: `must be between 0 and ${max / 100}` }],
  );
}
