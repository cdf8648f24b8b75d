import 'server-only';
import type { Db } from '../db/client';
import type { ClientRow } from '../db/schema';
import { refundBuyerOnReturn } from '../engine/milestone-effects';
import { runMilestoneAction } from '../engine/run-milestone-action';

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
