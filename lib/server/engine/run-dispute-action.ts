import 'server-only';
import { eq } from 'drizzle-orm';
import { DISPUTE_ACTING_PARTY, decideDisputeAction, type DisputeAction, type DisputeAmountStatus, type DisputeStatus } from '@/lib/escrow/dispute-machine';
import type { Db, Tx } from '../db/client';
import { transactionWithLastWrite } from '../db/transaction';
import { disputes, type ClientRow } from '../db/schema';
import type { EventType } from '../events/record-event';
import { invalidState, notFound } from '../app-error';
import { findDispute, type DisputeRow } from '../records/disputes';
import type { TransactionGraph } from '../records/transaction-graph/queries';
import { finishDisputeStep, type DisputeEffect } from './dispute-action';
import { assertActingParty } from './parties';
import { lockTransactionOfMilestone } from './transaction-lock';

const DISPUTE_EVENT: Record<DisputeAction, EventType> = {
  add_dispute_amount: 'dispute.amount_proposed',
  approve_dispute_amount: 'dispute.resolved',
  reject_dispute_amount: 'dispute.amount_rejected',
  counter_offer: 'dispute.counter_offered',
  accept_counter_offer: 'dispute.resolved',
  escalate: 'dispute.escalated',
  submit_evidence: 'dispute.evidence_submitted',
  extend_evidence: 'dispute.evidence_extended',
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
