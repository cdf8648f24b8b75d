import 'server-only';
import { eq } from 'drizzle-orm';
import type { DisputeAmountStatus, DisputeStatus } from '@/lib/escrow/dispute-machine';
import { settlement } from '@/lib/escrow/ledger';
import type { DbOrTx, Tx } from '../db/client';
import { disputes, milestones } from '../db/schema';
import { recordEvent, type EventType } from '../events/record-event';
import { notFound } from '../app-error';
import type { ClientRow } from '../db/schema';
import { disputeWithPartiesRecord, findDispute, loadEvidence, loadProposals, type DisputeRow } from '../records/disputes';
import { findMilestone, loadMilestoneLogs, readGraphOfMilestone, type TransactionGraph } from '../records/transaction-graph';
import { refreshTransaction, writeMilestoneLog, type ActionEffect, type LogActor } from './milestone-action';
import { postTransfer } from './post-transfer';
import { settlementTerms } from './settlement-terms';

/** Extra dispute fields an action sets besides the status (escalation, resolution, cancellation). */
export type DisputeEffect = ActionEffect & { dispute?: Partial<typeof disputes.$inferInsert> };

/** Writes a dispute step: new status and fields, the milestone log line, the transaction refresh and the event. */
export async function finishDisputeStep(
  tx: Tx,
  a: {
    client: ClientRow;
    dispute: DisputeRow;
    graph: TransactionGraph;
    now: Date;
    actor: LogActor;
    automatic: boolean;
    baseUrl: string;
    event: EventType;
    status: DisputeStatus;
    amountStatus: DisputeAmountStatus;
    effect: DisputeEffect;
  },
) {
  const [dispute] = await tx
    .update(disputes)
    .set({ ...a.effect.dispute, status: a.status, disputeAmountStatus: a.amountStatus, updatedAt: a.now })
    .where(eq(disputes.id, a.dispute.id))
    .returning();
  if (!dispute) throw notFound('Dispute', a.dispute.id);
  await writeMilestoneLog(tx, { milestoneId: a.dispute.milestoneId, actor: a.actor, message: a.effect.log, now: a.now, automatic: a.automatic });
  // The parties cannot change within a step: the refreshed rows complete the graph without a reload.
  const graph: TransactionGraph = { ...a.graph, ...(await refreshTransaction(tx, { transactionId: a.graph.transaction.id, now: a.now, ...a.effect })) };
  const record = await disputeRecordOf(tx, dispute, graph, a.baseUrl);
  await recordEvent(tx, {
    clientId: a.client.id,
    type: a.event,
    transactionId: a.graph.transaction.id,
    milestoneId: a.dispute.milestoneId,
    disputeId: a.dispute.id,
    data: { actor: a.actor, automatic: a.automatic, message: a.effect.log, dispute: record },
    now: a.now,
  });
  return record;
}

/**
 * Every way a dispute ends moves the escrow the same way: `paidToSeller` to the seller less its fee
 * share, the fee to the platform, the rest to the buyer (decisions §6). Cancelling is paying 0.
 */
export async function settleDisputedMilestone(
  tx: Tx,
  a: { client: ClientRow; graph: TransactionGraph; dispute: DisputeRow; paidToSeller: number; now: Date; why: string },
) {
  const entry = findMilestone(a.graph, a.dispute.milestoneId);
  const { transfer, breakdown } = settlement('dispute_settlement', {
    escrowId: entry.escrow.id,
    sellerWalletId: a.graph.seller.organisation.walletId,
    buyerWalletId: a.graph.buyer.organisation.walletId,
    feeAccountId: a.client.feeAccountId,
    paidToSeller: a.paidToSeller,
    terms: settlementTerms(entry),
  });
  await postTransfer(tx, { clientId: a.client.id, transfer, milestoneId: entry.milestone.id, description: `${a.why} (${a.dispute.disputeCode})`, now: a.now });
  await tx.update(milestones).set({ status: 'DISPUTE_RESOLVED', updatedAt: a.now }).where(eq(milestones.id, entry.milestone.id));
  return breakdown;
}

/** File URLs in the record are on `baseUrl`, where the caller reaches this API. */
export async function loadDisputeWithParties(db: DbOrTx, clientId: string, disputeId: string, baseUrl: string) {
  const dispute = await findDispute(db, clientId, disputeId);
  if (!dispute) throw notFound('Dispute', disputeId);
  const graph = await readGraphOfMilestone(db, clientId, dispute.milestoneId);
  if (!graph) throw notFound('Dispute', disputeId);
  return disputeRecordOf(db, dispute, graph, baseUrl);
}

async function disputeRecordOf(db: DbOrTx, dispute: DisputeRow, graph: TransactionGraph, baseUrl: string) {
  const [proposals, logs, evidence] = await Promise.all([
    loadProposals(db, [dispute.id]),
    loadMilestoneLogs(db, dispute.milestoneId),
    loadEvidence(db, [dispute.id]),
  ]);
  return disputeWithPartiesRecord(dispute, proposals.get(dispute.id) ?? [], graph, logs, evidence.get(dispute.id) ?? [], baseUrl);
}
