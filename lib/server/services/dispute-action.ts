import 'server-only';
import { eq } from 'drizzle-orm';
import { DISPUTE_ACTING_PARTY, decideDisputeAction, type DisputeAction, type DisputeAmountStatus, type DisputeStatus } from '@/lib/escrow/dispute-machine';
import type { Db, DbOrTx, Tx } from '../db/client';
import { disputes } from '../db/schema';
import { recordEvent, type EventType } from '../events/record-event';
import { invalidState, notFound } from '../http/app-error';
import type { ClientRow } from '../http/auth';
import { disputeWithPartiesRecord, findDispute, loadProposals, type DisputeRow } from '../records/disputes';
import { loadMilestoneLogs, loadTransactionGraph, transactionIdOfMilestone, type TransactionGraph } from '../records/transaction-graph';
import { lockTransactionOfMilestone, refreshTransaction, writeMilestoneLog, type ActionEffect } from './milestone-action';
import { assertActingParty } from './parties';

const DISPUTE_EVENT: Record<DisputeAction, EventType> = {
  add_dispute_amount: 'dispute.amount_proposed',
  approve_dispute_amount: 'dispute.resolved',
  reject_dispute_amount: 'dispute.amount_rejected',
};

export type DisputeActionContext = {
  tx: Tx;
  client: ClientRow;
  dispute: DisputeRow;
  graph: TransactionGraph;
  now: Date;
  next: { status: DisputeStatus; amountStatus: DisputeAmountStatus };
};

/** Same order as milestone actions: lock the transaction → 404 → 403 → 409 → apply → log → refresh. */
export async function runDisputeAction(
  db: Db,
  a: {
    client: ClientRow;
    disputeId: string;
    action: DisputeAction;
    actingId: string;
    now: Date;
    apply: (ctx: DisputeActionContext) => Promise<ActionEffect>;
  },
) {
  return db.transaction(async (tx) => {
    const found = await findDispute(tx, a.client.id, a.disputeId);
    if (!found) throw notFound('Dispute', a.disputeId);
    const graph = await lockTransactionOfMilestone(tx, a.client.id, found.milestoneId);
    const [dispute] = await tx.select().from(disputes).where(eq(disputes.id, a.disputeId));
    if (!dispute) throw notFound('Dispute', a.disputeId);
    const role = DISPUTE_ACTING_PARTY[a.action];
    await assertActingParty(tx, {
      clientId: a.client.id,
      role,
      givenId: a.actingId,
      expectedPartyId: role === 'buyer' ? dispute.buyerPartyId : dispute.sellerPartyId,
      field: `${role}_id`,
    });
    const decision = decideDisputeAction(a.action, {
      status: dispute.status as DisputeStatus,
      amountStatus: dispute.disputeAmountStatus as DisputeAmountStatus,
    });
    if (!decision.ok) throw invalidState(decision.message);
    const effect = await a.apply({ tx, client: a.client, dispute, graph, now: a.now, next: decision });
    await tx
      .update(disputes)
      .set({ status: decision.status, disputeAmountStatus: decision.amountStatus, updatedAt: a.now })
      .where(eq(disputes.id, dispute.id));
    await writeMilestoneLog(tx, { milestoneId: dispute.milestoneId, actor: role, message: effect.log, now: a.now });
    await refreshTransaction(tx, { transactionId: graph.transaction.id, now: a.now, ...effect });
    const record = await loadDisputeWithParties(tx, a.client.id, a.disputeId);
    await recordEvent(tx, {
      clientId: a.client.id,
      type: DISPUTE_EVENT[a.action],
      transactionId: graph.transaction.id,
      milestoneId: dispute.milestoneId,
      disputeId: dispute.id,
      data: { actor: role, automatic: false, message: effect.log, dispute: record },
      now: a.now,
    });
    return record;
  });
}

export async function loadDisputeWithParties(db: DbOrTx, clientId: string, disputeId: string) {
  const dispute = await findDispute(db, clientId, disputeId);
  if (!dispute) throw notFound('Dispute', disputeId);
  const transactionId = await transactionIdOfMilestone(db, clientId, dispute.milestoneId);
  const graph = transactionId ? await loadTransactionGraph(db, clientId, transactionId) : undefined;
  if (!graph) throw notFound('Dispute', disputeId);
  const [proposals, logs] = await Promise.all([loadProposals(db, [dispute.id]), loadMilestoneLogs(db, dispute.milestoneId)]);
  return disputeWithPartiesRecord(dispute, proposals.get(dispute.id) ?? [], graph, logs);
}
