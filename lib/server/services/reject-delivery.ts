import 'server-only';
import type { RejectDeliveryBody } from '@/lib/contracts/milestones';
import { addCalendarDays, formatLagosDateTime } from '@/lib/escrow/business-days';
import { RETURN_WINDOW_DAYS } from '@/lib/escrow/deadlines';
import type { Db } from '../db/client';
import type { ClientRow } from '../db/schema';
import { WITHDRAWN_NOTE, withdrawnProposal } from '../engine/milestone-effects';
import { runMilestoneAction } from '../engine/run-milestone-action';
import { assertProofs } from './proofs';

export async function rejectDelivery(db: Db, client: ClientRow, milestoneId: string, body: RejectDeliveryBody, now: Date, baseUrl: string) {
  return runMilestoneAction(db, {
    client,
    milestoneId,
    action: 'reject',
    actingId: body.buyer_id,
    now,
    apply: async ({ tx, entry }) => {
      await assertProofs(tx, { clientId: client.id, field: 'proofs_of_return', urls: body.proofs_of_return, baseUrl });
      const returnDeadlineDate = addCalendarDays(now, RETURN_WINDOW_DAYS);
      const withdrawn = withdrawnProposal(entry, now);
      return {
        milestone: {
          isDeliveryRejected: true,
          deliveryRejectionReason: body.rejection_reason,
          proofsOfReturn: body.proofs_of_return,
          isReturnProofSent: true,
          returnDeadlineDate,
          ...withdrawn,
        },
        log: `Buyer rejected the delivery ("${body.rejection_reason}") and sent proof of return; the seller has until ${formatLagosDateTime(returnDeadlineDate)} to answer.${withdrawn.partialAcceptance ? WITHDRAWN_NOTE : ''}`,
      };
    },
  });
}
