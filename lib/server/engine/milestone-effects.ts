import 'server-only';
import { refund, settlement } from '@/lib/escrow/ledger';
import { formatNaira } from '@/lib/escrow/money';
import type { ActionContext, MilestoneActionEffect } from './milestone-action';
import { settlementTerms } from '../records/transaction-graph/domain';

// Money a milestone action moves, shared by the party's own operation and the lapse that takes it on the
// party's behalf (apply-lapses.ts), which must not import the operations back.

/** Releases the milestone to the seller less the seller's fee share: an accepted delivery, or a lapsed inspection. */
export async function releaseToSeller({ client, graph, entry }: ActionContext, how: string): Promise<MilestoneActionEffect> {
  const terms = settlementTerms(entry);
  const { transfer, breakdown } = settlement('release', {
    escrowId: entry.escrow.id,
    sellerWalletId: graph.seller.organisation.walletId,
    buyerWalletId: graph.buyer.organisation.walletId,
    feeAccountId: client.feeAccountId,
    paidToSeller: entry.milestone.amountKobo,
    terms,
  });
  return {
    milestone: { isCompleted: true },
    transfer: { transfer, description: `Release of milestone ${entry.milestone.position}` },
    log: `${how}; ${formatNaira(breakdown.toSeller)} released to the seller (fee ${formatNaira(breakdown.fee)}).`,
    disbursedKobo: breakdown.toSeller,
  };
}

/** Refunds everything held to the buyer: an approved return, or one the seller left unanswered. */
export async function refundBuyerOnReturn({ graph, entry }: ActionContext, how: string): Promise<MilestoneActionEffect> {
  const held = entry.escrow.balanceKobo;
  const transfer = refund({ escrowId: entry.escrow.id, buyerWalletId: graph.buyer.organisation.walletId, escrowBalance: held });
  return {
    milestone: { isReturnApproved: true, isDeliveryRejected: false },
    transfer: { transfer, description: `Refund of milestone ${entry.milestone.position}` },
    log: `${how}; ${formatNaira(held)} refunded to the buyer.`,
    refundedKobo: held,
  };
}
