import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { ACTING_PARTY, decideMilestoneAction, transactionProgress, type MilestoneAction, type MilestoneStatus } from '@/lib/escrow/milestone-machine';
import type { Db, Tx } from '../db/client';
import { milestoneLogs, transactions } from '../db/schema';
import { recordEvent, type EventType } from '../events/record-event';
import { uuidv7 } from '../ids';
import { invalidState, notFound } from '../http/app-error';
import type { ClientRow } from '../http/auth';
import {
  findMilestone,
  graphOfTransaction,
  loadMilestonesWithEscrows,
  milestoneRecord,
  transactionOfMilestone,
  type MilestoneWithEscrow,
  type TransactionGraph,
  type TransactionRow,
} from '../records/transaction-graph';
import { settleDueDeadlines } from '../deadlines/settle';
import { assertActingParty } from './parties';

export type ActionContext = {
  tx: Tx;
  client: ClientRow;
  graph: TransactionGraph;
  entry: MilestoneWithEscrow;
  now: Date;
  to: MilestoneStatus;
};

/** What an action did beyond the status change: the log line and the transaction's running totals. */
export type ActionEffect = { log: string; fundedKobo?: number; refundedKobo?: number; disbursedKobo?: number };

export type LogActor = 'buyer' | 'seller' | 'client' | 'system' | 'dispute_team';

const EVENT_OF: Record<MilestoneAction, EventType> = {
  fund: 'milestone.funded',
  deliver: 'milestone.delivered',
  approve: 'milestone.delivery_accepted',
  reject: 'milestone.delivery_rejected',
  approve_return: 'milestone.return_approved',
  disapprove_return: 'milestone.return_rejected',
  open_dispute: 'dispute.created',
};

export async function writeMilestoneLog(tx: Tx, a: { milestoneId: string; actor: LogActor; message: string; now: Date; automatic?: boolean }) {
  await tx.insert(milestoneLogs).values({
    id: uuidv7(),
    milestoneId: a.milestoneId,
    actor: a.actor,
    logMessage: a.message,
    isAutomatic: a.automatic ?? false,
    createdAt: a.now,
    updatedAt: a.now,
  });
}

/**
 * Locks the milestone's transaction row for the rest of the database transaction. Every writer of a
 * transaction's milestones or disputes takes this lock first, so racing requests queue here and the
 * loser sees the winner's state.
 */
export async function lockTransactionOfMilestone(tx: Tx, client: ClientRow, milestoneId: string, now: Date | undefined): Promise<TransactionGraph> {
  const locked = await transactionOfMilestone(tx, client.id, milestoneId, { lock: true });
  if (!locked) throw notFound('Milestone', milestoneId);
  // A deadline that has passed has already acted, whether or not the runner got there first
  // (decisions §5, §6): the request is judged against the state after the lapse.
  const lapses = now ? await settleDueDeadlines(tx, client, locked.id, now) : 0;
  const transaction = lapses > 0 ? await transactionOfMilestone(tx, client.id, milestoneId) : locked;
  if (!transaction) throw notFound('Milestone', milestoneId);
  return graphOfTransaction(tx, transaction);
}

/**
 * Recomputes the transaction's status and current milestone from its milestones (decisions §5: never
 * stale), and returns both as they now stand.
 */
export async function refreshTransaction(
  tx: Tx,
  a: { transactionId: string; now: Date; fundedKobo?: number; refundedKobo?: number; disbursedKobo?: number },
): Promise<{ transaction: TransactionRow; milestones: MilestoneWithEscrow[] }> {
  const ms = await loadMilestonesWithEscrows(tx, a.transactionId);
  const progress = transactionProgress(ms.map((e) => ({ id: e.milestone.id, status: e.milestone.status as MilestoneStatus, position: e.milestone.position })));
  const [transaction] = await tx
    .update(transactions)
    .set({
      status: progress.status,
      currentMilestoneId: progress.current?.id ?? null,
      isCompleted: progress.isCompleted,
      onLastMilestone: progress.onLastMilestone,
      approvedAt: progress.isCompleted ? a.now : null,
      totalAmountFundedKobo: sql`${transactions.totalAmountFundedKobo} + ${a.fundedKobo ?? 0}`,
      totalAmountRefundedKobo: sql`${transactions.totalAmountRefundedKobo} + ${a.refundedKobo ?? 0}`,
      totalAmountDisbursedKobo: sql`${transactions.totalAmountDisbursedKobo} + ${a.disbursedKobo ?? 0}`,
      updatedAt: a.now,
    })
    .where(eq(transactions.id, a.transactionId))
    .returning();
  if (!transaction) throw new Error(`transaction ${a.transactionId} vanished while it was locked`);
  return { transaction, milestones: ms };
}

/**
 * The shape every milestone operation shares: lock → unknown id (404) → wrong party (403) →
 * wrong state (409) → apply → log → refresh the transaction → event, all in one database transaction.
 * Without an actingId the service itself acts (a lapsed deadline): no party check, logged as automatic.
 */
export async function runMilestoneAction(
  db: Db | Tx,
  a: {
    client: ClientRow;
    milestoneId: string;
    action: MilestoneAction;
    actingId?: string;
    now: Date;
    apply: (ctx: ActionContext) => Promise<ActionEffect>;
  },
): Promise<TransactionGraph> {
  return db.transaction(async (tx) => {
    // The service's own actions run while deadlines are being settled: no settling inside them.
    const graph = await lockTransactionOfMilestone(tx, a.client, a.milestoneId, a.actingId === undefined ? undefined : a.now);
    const role = ACTING_PARTY[a.action];
    if (a.actingId !== undefined) {
      await assertActingParty(tx, { clientId: a.client.id, role, givenId: a.actingId, expected: graph[role].party, field: `${role}_id` });
    }
    const entry = findMilestone(graph, a.milestoneId);
    const state = (e: MilestoneWithEscrow) => ({ id: e.milestone.id, status: e.milestone.status as MilestoneStatus, position: e.milestone.position });
    const decision = decideMilestoneAction(a.action, state(entry), graph.milestones.map(state));
    if (!decision.ok) throw invalidState(decision.message);
    const effect = await a.apply({ tx, client: a.client, graph, entry, now: a.now, to: decision.to });
    const automatic = a.actingId === undefined;
    await writeMilestoneLog(tx, { milestoneId: a.milestoneId, actor: automatic ? 'system' : role, message: effect.log, now: a.now, automatic });
    // The parties cannot change within an action: the refreshed rows complete the graph without a reload.
    const updated: TransactionGraph = { ...graph, ...(await refreshTransaction(tx, { transactionId: graph.transaction.id, now: a.now, ...effect })) };
    await recordEvent(tx, {
      clientId: a.client.id,
      type: EVENT_OF[a.action],
      transactionId: graph.transaction.id,
      milestoneId: a.milestoneId,
      data: { actor: automatic ? 'system' : role, automatic, message: effect.log, milestone: milestoneRecord(updated, a.milestoneId) },
      now: a.now,
    });
    return updated;
  });
}
