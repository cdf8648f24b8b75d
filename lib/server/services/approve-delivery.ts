import 'server-only';
import type { Db } from '../db/client';
import type { ClientRow } from '../db/schema';
import { releaseToSeller } from '../engine/milestone-effects';
import { runMilestoneAction } from '../engine/run-milestone-action';

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
