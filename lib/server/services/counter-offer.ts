import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { CounterOfferBody } from '@/lib/contracts/disputes';
import { formatNaira } from '@/lib/escrow/money';
import type { Db } from '../db/client';
import { runAsOneStatement } from '../db/one-statement';
import { disputeProposals, type ClientRow } from '../db/schema';
import { uuidv7 } from '../ids';
import { settleDisputedMilestone } from '../engine/dispute-action';
import { runDisputeAction } from '../engine/run-dispute-action';
import { assertSellerShareInRange, sellerShareKobo } from '../engine/seller-share';

/**
 * The buyer's counter-offer in mediation (docs/decisions.md §13): the amount it is prepared to pay, in the range the
 * seller's proposals have. It answers the seller's standing proposal (REJECTED, with the buyer's reason) or
 * replaces the buyer's own earlier offer (SUPERSEDED); both sides' offers stay in the proposal history.
 */
export async function counterOffer(db: Db, client: ClientRow, disputeId: string, body: CounterOfferBody, now: Date, baseUrl: string) {
  const amount = sellerShareKobo(body.amount, 'amount');
  return runDisputeAction(db, {
    client,
    disputeId,
    action: 'counter_offer',
    actor: { role: 'buyer', id: body.buyer_id },
    now,
    baseUrl,
    apply: async ({ tx, dispute, graph }) => {
      assertSellerShareInRange(graph, dispute.milestoneId, amount, 'amount');
      const pending = and(eq(disputeProposals.disputeId, dispute.id), eq(disputeProposals.status, 'SUBMITTED'));
      // One statement: the updates do not see the offer inserted beside them.
      await runAsOneStatement(tx, 'counter_offer', [
        tx.update(disputeProposals).set({ status: 'REJECTED', rejectionReason: body.reason ?? null, decidedAt: now }).where(and(pending, eq(disputeProposals.proposedBy, 'seller'))),
        tx.update(disputeProposals).set({ status: 'SUPERSEDED', decidedAt: now }).where(and(pending, eq(disputeProposals.proposedBy, 'buyer'))),
        tx.insert(disputeProposals).values({ id: uuidv7(), disputeId: dispute.id, amountKobo: amount, proposedBy: 'buyer', status: 'SUBMITTED', createdAt: now }),
      ]);
      return {
        log: `Buyer offered ${formatNaira(amount)} to the seller to settle the dispute${body.reason ? ` ("${body.reason}")` : ''}; the seller may accept it or propose again.`,
        dispute: { counterOfferAmountKobo: amount },
      };
    },
  });
}

/** The seller accepts the buyer's offer: settled exactly as an approved amount (docs/decisions.md §6, §13). */
export async function acceptCounterOffer(db: Db, client: ClientRow, disputeId: string, sellerId: string, now: Date, baseUrl: string) {
  return runDisputeAction(db, {
    client,
    disputeId,
    action: 'accept_counter_offer',
    actor: { role: 'seller', id: sellerId },
    now,
    baseUrl,
    apply: async ({ tx, dispute, graph }) => {
      const amount = dispute.counterOfferAmountKobo ?? 0;
      const breakdown = await settleDisputedMilestone(tx, { client, graph, dispute, paidToSeller: amount, now, why: "The buyer's offer accepted in mediation" });
      await tx
        .update(disputeProposals)
        .set({ status: 'APPROVED', decidedAt: now })
        .where(and(eq(disputeProposals.disputeId, dispute.id), eq(disputeProposals.status, 'SUBMITTED')))
        .prepare('accept_counter_offer')
        .execute();
      return {
        log: `Seller accepted the buyer's offer of ${formatNaira(amount)}; dispute resolved: ${formatNaira(breakdown.toSeller)} to the seller (fee ${formatNaira(breakdown.fee)}), ${formatNaira(breakdown.toBuyer)} back to the buyer.`,
        disbursedKobo: breakdown.toSeller,
        refundedKobo: breakdown.toBuyer,
        dispute: { disputeAmountKobo: amount, resolution: 'agreement', resolvedAt: now },
      };
    },
  });
}
