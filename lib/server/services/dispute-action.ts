import 'server-only';
import { eq } from 'drizzle-orm';
import { DISPUTE_ACTING_PARTY, decideDisputeAction, type DisputeAction, type DisputeAmountStatus, type DisputeStatus } from '@/lib/escrow/dispute-machine';
import { settlement } from '@/lib/escrow/ledger';
import type { Db, DbOrTx, Tx } from '../db/client';
import { runAsOneStatement } from '../db/one-statement';
import { transactionWithLastWrite } from '../db/transaction';
import { disputes, milestones } from '../db/schema';
import type { EventType } from '../events/record-event';
import { invalidState, notFound } from '../app-error';
import type { ClientRow } from '../db/schema';
import { disputeWithPartiesRecord, findDispute, loadEvidence, loadProposals, type DisputeRow } from '../records/disputes';
import { findMilestone, loadMilestoneLogs, loadMilestonesWithEscrows, readMilestoneWithLogs, type TransactionGraph } from '../records/transaction-graph';
import { lockTransactionOfMilestone, writeStep, type ActionEffect, type LogActor } from './milestone-action';
import { assertActingParty } from './parties';
import { lockLedgerAccounts, transferWrites } from './post-transfer';
import { settlementTerms } from './settlement-terms';

const DISPUTE_EVENT: Record<DisputeAction, EventType> = {
  add_dispute_amount: 'dispute.amount_proposed',
  approve_dispute_amount: 'dispute.resolved',
  reject_dispute_amount: 'dispute.amount_rejected',
  escalate: 'dispute.escalated',
  submit_evidence: 'dispute.evidence_submitted',
  cancel: 'dispute.canceled',
};

export type DisputeActionContext = {
  tx: Tx;
  client: ClientRow;
  dispute: DisputeRow;
  graph: TransactionGraph;
  now: Date;
  role: 'buyer' | 'seller';
  next: { status: DisputeStatus; amountStatus: DisputeAmountStatus };
};

/** Extra dispute fields an action sets besides the status (escalation, resolution, cancellation). */
export type DisputeEffect = ActionEffect & { dispute?: Partial<typeof disputes.$inferInsert> };

/**
 * Same order as milestone actions: lock the transaction (settling lapsed deadlines) → 404 → 403 →
 * 409 → apply → log → refresh → event. `role` is the party the caller says it acts as; for actions
 * either party may take, the route reads it from which of buyer_id / seller_id the body names.
 */
export async function runDisputeAction(
  db: Db,
  a: {
    client: ClientRow;
    disputeId: string;
    action: DisputeAction;
    actor: { role: 'buyer' | 'seller'; id: string };
    now: Date;
    baseUrl: string;
    apply: (ctx: DisputeActionContext) => Promise<DisputeEffect>;
  },
) {
  return transactionWithLastWrite(db, async (tx, last) => {
    const found = await findDispute(tx, a.client.id, a.disputeId);
    if (!found) throw notFound('Dispute', a.disputeId);
    const graph = await lockTransactionOfMilestone(tx, a.client, found.milestoneId, a.now);
    const [dispute] = await tx.select().from(disputes).where(eq(disputes.id, a.disputeId)).prepare('dispute_by_id').execute();
    if (!dispute) throw notFound('Dispute', a.disputeId);
    const allowedRole = DISPUTE_ACTING_PARTY[a.action];
    const role = allowedRole === 'either' ? a.actor.role : allowedRole;
    // A dispute's parties are its transaction's (create-dispute checks both against the graph).
    await assertActingParty(tx, { clientId: a.client.id, role, givenId: a.actor.id, expected: graph[role].party, field: `${role}_id` });
    const decision = decideDisputeAction(a.action, {
      status: dispute.status as DisputeStatus,
      amountStatus: dispute.disputeAmountStatus as DisputeAmountStatus,
    });
    if (!decision.ok) throw invalidState(decision.message);
    const effect = await a.apply({ tx, client: a.client, dispute, graph, now: a.now, role, next: decision });
    return finishDisputeStep(
      tx,
      {
        client: a.client,
        dispute,
        graph,
        now: a.now,
        actor: role,
        automatic: false,
        baseUrl: a.baseUrl,
        event: DISPUTE_EVENT[a.action],
        status: decision.status,
        amountStatus: decision.amountStatus,
        effect,
      },
      last,
    );
  });
}

/**
 * Writes a dispute step in one statement (writeStep): the dispute's new status and fields, the milestone
 * log line, the transaction's status and totals, and the event with the dispute as it now stands. Given
 * `last`, the step ends its transaction (transactionWithLastWrite); otherwise it is written before this returns.
 */
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
  last?: (write: Promise<unknown>) => void,
) {
  const { id, milestoneId } = a.dispute;
  // Read together: the milestones as they now stand (a settlement may have just resolved this one) and
  // what the dispute's record shows besides.
  const [current, proposals, logs, evidence] = await Promise.all([
    loadMilestonesWithEscrows(tx, a.graph.transaction.id),
    loadProposals(tx, [id]),
    loadMilestoneLogs(tx, milestoneId),
    loadEvidence(tx, [id]),
  ]);
  const changes = { ...a.effect.dispute, status: a.status, disputeAmountStatus: a.amountStatus, updatedAt: a.now };
  const dispute: DisputeRow = { ...a.dispute, ...changes };
  let record: ReturnType<typeof disputeWithPartiesRecord> | undefined;
  const { written } = writeStep(tx, {
    client: a.client,
    graph: { ...a.graph, milestones: current },
    milestoneId,
    now: a.now,
    totals: a.effect,
    log: { actor: a.actor, message: a.effect.log, automatic: a.automatic },
    rows: [tx.update(disputes).set(changes).where(eq(disputes.id, id))],
    event: {
      type: a.event,
      disputeId: id,
      data: (after, log) => {
        record = disputeWithPartiesRecord(dispute, proposals.get(id) ?? [], after, [...logs, log], evidence.get(id) ?? [], a.baseUrl);
        return { actor: a.actor, automatic: a.automatic, message: a.effect.log, dispute: record };
      },
    },
  });
  if (last) last(written);
  else await written;
  return record!;
}

/**
 * Every way a dispute ends moves the escrow the same way: `paidToSeller` to the seller less its fee
 * share, the fee to the platform, the rest to the buyer (decisions §6). Cancelling is paying 0. The
 * transfer and the milestone's resolution are written now, in one statement, after its accounts are locked.
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
  await lockLedgerAccounts(
    tx,
    transfer.postings.map((p) => p.accountId),
  );
  await runAsOneStatement(tx, 'settle_dispute', [
    ...transferWrites({ clientId: a.client.id, transfer, milestoneId: entry.milestone.id, description: `${a.why} (${a.dispute.disputeCode})`, now: a.now }),
    tx.update(milestones).set({ status: 'DISPUTE_RESOLVED', updatedAt: a.now }).where(eq(milestones.id, entry.milestone.id)),
  ]);
  return breakdown;
}

/** File URLs in the record are on `baseUrl`, where the caller reaches this API. */
export async function loadDisputeWithParties(db: DbOrTx, clientId: string, disputeId: string, baseUrl: string) {
  const dispute = await findDispute(db, clientId, disputeId);
  if (!dispute) throw notFound('Dispute', disputeId);
  const [read, proposals, evidence] = await Promise.all([
    readMilestoneWithLogs(db, clientId, dispute.milestoneId),
    loadProposals(db, [dispute.id]),
    loadEvidence(db, [dispute.id]),
  ]);
  if (!read) throw notFound('Dispute', disputeId);
  return disputeWithPartiesRecord(dispute, proposals.get(dispute.id) ?? [], read.graph, read.logs, evidence.get(dispute.id) ?? [], baseUrl);
}
