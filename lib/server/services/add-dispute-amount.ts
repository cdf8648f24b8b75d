import 'server-only';
import { and, eq } from 'drizzle-orm';
import { formatNaira } from '@/lib/escrow/money';
import type { Db } from '../db/client';
import { runAsOneStatement } from '../db/one-statement';
import { disputeProposals } from '../db/schema';
import type { ClientRow } from '../db/schema';
import { uuidv7 } from '../ids';
import { runDisputeAction } from '../engine/run-dispute-action';
import { assertSellerShareInRange, sellerShareKobo } from '../engine/seller-share';

export async function addDisputeAmount(db: Db, client: ClientRow, disputeId: string, body: { dispute_amount: number; seller_id: string }, now: Date, baseUrl: string) {
  const amount = sellerShareKobo(body.dispute_amount, 'dispute_amount');
  return runDisputeAction(db, {
    client,
    disputeId,
    action: 'add_dispute_amount',
    actor: { role: 'seller', id: body.seller_id },
    now,
    baseUrl,
    apply: async ({ tx, dispute, graph }) => {
      assertSellerShareInRange(graph, dispute.milestoneId, amount, 'dispute_amount');
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
