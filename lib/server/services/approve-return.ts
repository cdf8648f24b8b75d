import 'server-only';
import { refund } from '@/lib/escrow/ledger';
import { formatNaira } from '@/lib/escrow/money';
import type { Db } from '../db/client';
import type { ClientRow } from '../db/schema';
import { runMilestoneAction, type ActionContext, type MilestoneActionEffect } from './milestone-action';

/** Refunds everything held to the buyer; shared with the unanswered-return runner. */
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

export async function approveReturn(db: Db, client: ClientRow, milestoneId: string, sellerId: string, now: Date) {
  return runMilestoneAction(db, {
    client,
    milestoneId,
    action: 'approve_return',
    actingId: sellerId,
    now,
    moves: ['escrow', 'buyer_wallet'],
    apply: (ctx) => refundBuyerOnReturn(ctx, 'Seller approved the return'),
  });
}
