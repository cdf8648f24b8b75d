import 'server-only';
import type { Db } from '../db/client';
import type { ClientRow } from '../db/schema';
import { runMilestoneAction } from './run-milestone-action';

export async function disapproveReturn(db: Db, client: ClientRow, milestoneId: string, sellerId: string, now: Date) {
  return runMilestoneAction(db, {
    client,
    milestoneId,
    action: 'disapprove_return',
    actingId: sellerId,
    now,
    apply: async () => ({
      milestone: { isReturnRejected: true, isDeliveryRejected: false },
      log: 'Seller rejected the return; the funds stay in escrow and the seller may open a dispute.',
    }),
  });
}
