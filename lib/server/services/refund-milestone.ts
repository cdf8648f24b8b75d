import 'server-only';
import type { RefundMilestoneBody } from '@/lib/contracts/milestones';
import type { Db } from '../db/client';
import type { ClientRow } from '../db/schema';
import { writeSellerRefund } from '../engine/partial-outcome-writes';
import { runPartialOutcomeStep } from '../engine/run-partial-outcome-step';
import { sellerShareKobo } from '../engine/seller-share';

/** `POST /v1/milestones/{id}/refund`: the seller gives back part or all of what the milestone holds (docs/decisions.md §17). */
export async function refundMilestone(db: Db, client: ClientRow, milestoneId: string, body: RefundMilestoneBody, now: Date, baseUrl: string) {
  const amountKobo = sellerShareKobo(body.amount, 'amount');
  return runPartialOutcomeStep(db, {
    client,
    milestoneId,
    role: 'seller',
    actingId: body.seller_id,
    now,
    write: (frame) => writeSellerRefund(frame, { amountKobo, reason: body.reason, baseUrl }),
  });
}
