import 'server-only';
import type { DeliverBody } from '@/lib/contracts/milestones';
import { addCalendarDays, formatLagosDateTime } from '@/lib/escrow/business-days';
import type { Db } from '../db/client';
import type { ClientRow } from '../db/schema';
import { runMilestoneAction } from '../engine/run-milestone-action';
import { assertProofs } from './proofs';

export async function deliverMilestone(db: Db, client: ClientRow, milestoneId: string, body: DeliverBody, now: Date, baseUrl: string) {
  return runMilestoneAction(db, {
    client,
    milestoneId,
    action: 'deliver',
    actingId: body.seller_id,
    now,
    apply: async ({ tx, entry }) => {
      await assertProofs(tx, { clientId: client.id, field: 'proofs_of_completion', urls: body.proofs_of_completion, baseUrl });
      const inspectionEndDate = addCalendarDays(now, entry.milestone.inspectionDuration);
      const count = body.proofs_of_completion.length;
      return {
        milestone: { isDelivered: true, inspectionEndDate, proofsOfCompletion: body.proofs_of_completion },
        log: `Seller delivered the milestone with ${count} proof${count === 1 ? '' : 's'} of completion; inspection started and runs until ${formatLagosDateTime(inspectionEndDate)}.`,
      };
    },
  });
}
