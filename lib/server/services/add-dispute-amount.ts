import 'server-only';
import { and, eq } from 'drizzle-orm';
import { formatNaira, parseNaira } from '@/lib/escrow/money';
import type { Db } from '../db/client';
import { runAsOneStatement } from '../db/one-statement';
import { disputeProposals } from '../db/schema';
import { AppError } from '../app-error';
import type { ClientRow } from '../db/schema';
import { uuidv7 } from '../ids';
import { maxDisputeAmountKobo } from '../records/disputes';
import { runDisputeAction } from './run-dispute-action';

export async function addDisputeAmount(db: Db, client: ClientRow, disputeId: string, body: { dispute_amount: number; seller_id: string }, now: Date, baseUrl: string) {
  const parsed = parseNaira(body.dispute_amount);
  if (!parsed.ok) throw new AppError('VALIDATION_ERROR', `dispute_amount ${parsed.reason}`);
  const amount = parsed.kobo;
  return runDisputeAction(db, {
    client,
    disputeId,
    action: 'add_dispute_amount',
    actor: { role: 'seller', id: body.seller_id },
    now,
    baseUrl,
    apply: async ({ tx, dispute, graph }) => {
      const max = maxDisputeAmountKobo(graph, dispute.milestoneId);
      if (amount > max) {
        throw new AppError(
          'DISPUTE_AMOUNT_OUT_OF_RANGE',
          `dispute_amount must be between ${formatNaira(0)} and ${formatNaira(max)}: it cannot exceed the transaction amount or the milestone payment held in escrow.`,
          [{ field: 'dispute_amount', message: `must be between 0 and ${max / 100}` }],
        );
      }
      const revising = dispute.disputeAmountStatus === 'SUBMITTED';
      // One statement: the update does not see the proposal inserted beside it.
      await runAsOneStatement(tx, 'propose_dispute_amount', [
        tx
          .update(disputeProposals)
          .set({ status: 'SUPERSEDED', decidedAt: now })
          .where(and(eq(disputeProposals.disputeId, dispute.id), eq(disputeProposals.status, 'SUBMITTED'))),
        tx.insert(disputeProposals).values({ id: uuidv7(), disputeId: dispute.id, amountKobo: amount, proposedBy: 'seller', status: 'SUBMITTED', createdAt: now }),
      ]);
      return {
        log: `Seller ${revising ? 'revised the proposal to' : 'proposed'} ${formatNaira(amount)} to settle the dispute; the buyer has been notified.`,
        dispute: { disputeAmountKobo: amount },
      };
    },
  });
}
