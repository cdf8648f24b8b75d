import 'server-only';
import { eq } from 'drizzle-orm';
import { refund } from '@/lib/escrow/ledger';
import { formatNaira } from '@/lib/escrow/money';
import type { Db } from '../db/client';
import { milestones } from '../db/schema';
import type { ClientRow } from '../http/auth';
import { runMilestoneAction, type ActionContext, type ActionEffect } from './milestone-action';
import { postTransfer } from './post-transfer';

/** Refunds everything held to the buyer; shared with the unanswered-return runner. */
export async function refundBuyerOnReturn({ tx, client, graph, entry, now, to }: ActionContext, how: string): Promise<ActionEffect> {
  const held = entry.escrow.balanceKobo;
  const transfer = refund({ escrowId: entry.escrow.id, buyerWalletId: graph.buyer.organisation.walletId, escrowBalance: held });
  await postTransfer(tx, { clientId: client.id, transfer, milestoneId: entry.milestone.id, description: `Refund of milestone ${entry.milestone.position}`, now });
  await tx
    .update(milestones)
    .set({ status: to, isReturnApproved: true, isDeliveryRejected: false, updatedAt: now })
    .where(eq(milestones.id, entry.milestone.id));
  return { log: `${how}; ${formatNaira(held)} refunded to the buyer.`, refundedKobo: held };
}

export async function approveReturn(db: Db, client: ClientRow, milestoneId: string, sellerId: string, now: Date) {
  return runMilestoneAction(db, {
    client,
    milestoneId,
    action: 'approve_return',
    actingId: sellerId,
    now,
    apply: (ctx) => refundBuyerOnReturn(ctx, 'Seller approved the return'),
  });
}
