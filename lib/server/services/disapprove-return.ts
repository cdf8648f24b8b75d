import 'server-only';
import { addBusinessDays, formatLagosDateTime } from '@/lib/escrow/business-days';
import { DISPUTE_OPENING_BUSINESS_DAYS } from '@/lib/escrow/deadlines';
import { holidays } from '../calendar';
import type { Db } from '../db/client';
import type { ClientRow } from '../db/schema';
import { runMilestoneAction } from '../engine/run-milestone-action';

export async function disapproveReturn(db: Db, client: ClientRow, milestoneId: string, sellerId: string, now: Date) {
  return runMilestoneAction(db, {
    client,
    milestoneId,
    action: 'disapprove_return',
    actingId: sellerId,
    now,
    apply: async () => {
      // The buyer's money stays held until a dispute settles it, so one is opened in time whoever is silent (issue #25).
      const disputeOpeningDueAt = addBusinessDays(now, DISPUTE_OPENING_BUSINESS_DAYS, holidays());
      return {
        milestone: { isReturnRejected: true, isDeliveryRejected: false, disputeOpeningDueAt },
        log: `Seller rejected the return; the funds stay in escrow. Either party may open a dispute until ${formatLagosDateTime(disputeOpeningDueAt)}; if neither does, the service opens it then.`,
      };
    },
  });
}
