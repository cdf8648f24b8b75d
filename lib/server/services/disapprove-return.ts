import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { milestones } from '../db/schema';
import type { ClientRow } from '../http/auth';
import { runMilestoneAction } from './milestone-action';

export async function disapproveReturn(db: Db, client: ClientRow, milestoneId: string, sellerId: string, now: Date) {
  return runMilestoneAction(db, {
    client,
    milestoneId,
    action: 'disapprove_return',
    actingId: sellerId,
    now,
    apply: async ({ tx, to }) => {
      await tx
        .update(milestones)
        .set({ status: to, isReturnRejected: true, isDeliveryRejected: false, updatedAt: now })
        .where(eq(milestones.id, milestoneId));
      return { log: 'Seller rejected the return; the funds stay in escrow and the seller may open a dispute.' };
    },
  });
}
