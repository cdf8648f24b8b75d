import 'server-only';
import { and, eq } from 'drizzle-orm';
import { settlement } from '@/lib/escrow/ledger';
import { formatNaira } from '@/lib/escrow/money';
import type { Db } from '../db/client';
import { disputeProposals, milestones } from '../db/schema';
import type { ClientRow } from '../http/auth';
import { findMilestone } from '../records/transaction-graph';
import { runDisputeAction } from './dispute-action';
import { postTransfer } from './post-transfer';
import { settlementTerms } from './settlement-terms';

/** The buyer agrees: the amount goes to the seller less its fee share, the rest back to the buyer (decisions §6). */
export async function approveDisputeAmount(db: Db, client: ClientRow, disputeId: string, buyerId: string, now: Date) {
  return runDisputeAction(db, {
    client,
    disputeId,
    action: 'approve_dispute_amount',
    actingId: buyerId,
    now,
    apply: async ({ tx, dispute, graph }) => {
      const entry = findMilestone(graph, dispute.milestoneId);
      const { transfer, breakdown } = settlement('dispute_settlement', {
        escrowId: entry.escrow.id,
        sellerWalletId: graph.seller.organisation.walletId,
        buyerWalletId: graph.buyer.organisation.walletId,
        feeAccountId: client.feeAccountId,
        paidToSeller: dispute.disputeAmountKobo,
        terms: settlementTerms(entry),
      });
      await postTransfer(tx, { clientId: client.id, transfer, milestoneId: entry.milestone.id, description: `Settlement of dispute ${dispute.disputeCode}`, now });
      await tx
        .update(disputeProposals)
        .set({ status: 'APPROVED', decidedAt: now })
        .where(and(eq(disputeProposals.disputeId, dispute.id), eq(disputeProposals.status, 'SUBMITTED')));
      await tx.update(milestones).set({ status: 'DISPUTE_RESOLVED', updatedAt: now }).where(eq(milestones.id, entry.milestone.id));
      return {
        log: `Buyer approved ${formatNaira(dispute.disputeAmountKobo)}; dispute resolved: ${formatNaira(breakdown.toSeller)} to the seller (fee ${formatNaira(breakdown.fee)}), ${formatNaira(breakdown.toBuyer)} back to the buyer.`,
        disbursedKobo: breakdown.toSeller,
        refundedKobo: breakdown.toBuyer,
      };
    },
  });
}

export async function rejectDisputeAmount(db: Db, client: ClientRow, disputeId: string, body: { buyer_id: string; reason?: string }, now: Date) {
  return runDisputeAction(db, {
    client,
    disputeId,
    action: 'reject_dispute_amount',
    actingId: body.buyer_id,
    now,
    apply: async ({ tx, dispute }) => {
      await tx
        .update(disputeProposals)
        .set({ status: 'REJECTED', rejectionReason: body.reason ?? null, decidedAt: now })
        .where(and(eq(disputeProposals.disputeId, dispute.id), eq(disputeProposals.status, 'SUBMITTED')));
      return {
        log: `Buyer rejected the proposed ${formatNaira(dispute.disputeAmountKobo)}${body.reason ? ` ("${body.reason}")` : ''}; the seller may propose another amount.`,
      };
    },
  });
}
