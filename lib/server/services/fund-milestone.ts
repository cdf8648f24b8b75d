import 'server-only';
import type { Db } from '../db/client';
import type { ClientRow } from '../db/schema';
import { fundFromWallet } from '../engine/milestone-funding';
import { runMilestoneAction } from '../engine/run-milestone-action';

/** `actedBy` client: the marketplace's staff funded for the buyer, and the log says so. */
export async function fundMilestone(db: Db, client: ClientRow, milestoneId: string, buyerId: string, now: Date, actedBy: 'buyer' | 'client' = 'buyer') {
  return runMilestoneAction(db, {
    client,
    milestoneId,
    action: 'fund',
    actingId: buyerId,
    now,
    moves: ['buyer_wallet', 'escrow'],
    apply: fundFromWallet(actedBy),
  });
}
