import 'server-only';
import { settlement } from '@/lib/escrow/ledger';
import { formatNaira } from '@/lib/escrow/money';
import type { Db } from '../db/client';
import type { ClientRow } from '../db/schema';
import { runMilestoneAction, type ActionContext, type MilestoneActionEffect } from './milestone-action';
import { settlementTerms } from './settlement-terms';

/** Releases the milestone to the seller less the seller's fee share; shared with the lapsed-inspection runner. */
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

export async function approveDelivery(db: Db, client: ClientRow, milestoneId: string, buyerId: string, now: Date) {
  return runMilestoneAction(db, {
    client,
    milestoneId,
    action: 'approve',
    actingId: buyerId,
    now,
    moves: ['escrow', 'seller_wallet'],
    apply: (ctx) => releaseToSeller(ctx, 'Buyer accepted the delivery'),
  });
}
