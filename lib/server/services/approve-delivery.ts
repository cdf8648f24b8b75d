import 'server-only';
import { eq } from 'drizzle-orm';
import { settlement } from '@/lib/escrow/ledger';
import { formatNaira } from '@/lib/escrow/money';
import type { Db } from '../db/client';
import { milestones } from '../db/schema';
import type { ClientRow } from '../http/auth';
import { runMilestoneAction, type ActionContext, type ActionEffect } from './milestone-action';
import { postTransfer } from './post-transfer';
import { settlementTerms } from './settlement-terms';

/** Releases the milestone to the seller less the seller's fee share; shared with the lapsed-inspection runner. */
export async function releaseToSeller({ tx, client, graph, entry, now, to }: ActionContext, how: string): Promise<ActionEffect> {
  const terms = settlementTerms(entry);
  const { transfer, breakdown } = settlement('release', {
    escrowId: entry.escrow.id,
    sellerWalletId: graph.seller.organisation.walletId,
    buyerWalletId: graph.buyer.organisation.walletId,
    feeAccountId: client.feeAccountId,
    paidToSeller: entry.milestone.amountKobo,
    terms,
  });
  await postTransfer(tx, { clientId: client.id, transfer, milestoneId: entry.milestone.id, description: `Release of milestone ${entry.milestone.position}`, now });
  await tx.update(milestones).set({ status: to, isCompleted: true, updatedAt: now }).where(eq(milestones.id, entry.milestone.id));
  return {
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
    apply: (ctx) => releaseToSeller(ctx, 'Buyer accepted the delivery'),
  });
}
