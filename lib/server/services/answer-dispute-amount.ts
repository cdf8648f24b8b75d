import 'server-only';
import { and, eq } from 'drizzle-orm';
import { formatNaira } from '@/lib/escrow/money';
import type { Db } from '../db/client';
import { disputeProposals } from '../db/schema';
import type { ClientRow } from '../db/schema';
import { settleDisputedMilestone } from '../engine/dispute-action';
import { runDisputeAction } from '../engine/run-dispute-action';

/** The buyer agrees: the amount goes to the seller less its fee share, the rest back to the buyer (docs/decisions.md §6). */
export async function approveDisputeAmount(db: Db, client: ClientRow, disputeId: string, buyerId: string, now: Date, baseUrl: string) {
  return runDisputeAction(db, {
    client,
    disputeId,
    action: 'approve_dispute_amount',
    actor: { role: 'buyer', id: buyerId },
    now,
    baseUrl,
    apply: async ({ tx, dispute, graph }) => {
      const breakdown = await settleDisputedMilestone(tx, { client, graph, dispute, paidToSeller: dispute.disputeAmountKobo, now, why: 'Settlement agreed in mediation' });
      await tx
        .update(disputeProposals)
        .set({ status: 'APPROVED', decidedAt: now })
        .where(and(eq(disputeProposals.disputeId, dispute.id), eq(disputeProposals.status, 'SUBMITTED')))
        .prepare('approve_proposal')
        .execute();
      return {
        log: `Buyer approved ${formatNaira(dispute.disputeAmountKobo)}; dispute resolved: ${formatNaira(breakdown.toSeller)} to the seller (fee ${formatNaira(breakdown.fee)}), ${formatNaira(breakdown.toBuyer)} back to the buyer.`,
        disbursedKobo: breakdown.toSeller,
        refundedKobo: breakdown.toBuyer,
        dispute: { resolution: 'agreement', resolvedAt: now },
      };
    },
  });
}

export async function rejectDisputeAmount(db: Db, client: ClientRow, disputeId: string, body: { buyer_id: string; reason?: string }, now: Date, baseUrl: string) {
  return runDisputeAction(db, {
    client,
    disputeId,
    action: 'reject_dispute_amount',
    actor: { role: 'buyer', id: body.buyer_id },
    now,
    baseUrl,
    apply: async ({ tx, dispute }) => {
      await tx
        .update(disputeProposals)
        .set({ status: 'REJECTED', rejectionReason: body.reason ?? null, decidedAt: now })
        .where(and(eq(disputeProposals.disputeId, dispute.id), eq(disputeProposals.status, 'SUBMITTED')))
        .prepare('reject_proposal')
        .execute();
      return {
        log: `Buyer rejected the proposed ${formatNaira(dispute.disputeAmountKobo)}${body.reason ? ` ("${body.reason}")` : ''}; the seller may propose another amount.`,
      };
    },
  });
}
