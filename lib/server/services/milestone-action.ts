import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Transfer } from '@/lib/escrow/ledger';
import { decideMilestoneAction, transactionProgress, type MilestoneAction, type MilestoneStatus, type PartyRole } from '@/lib/escrow/milestone-machine';
import type { Tx } from '../db/client';
import { milestoneLogs, milestones, transactions } from '../db/schema';
import { insertRows, updateById, WriteBatch, writeSql } from '../db/write-batch';
import { stageEvent, type EventType } from '../events/record-event';
import { uuidv7 } from '../ids';
import { invalidState } from '../app-error';
import type { ClientRow } from '../db/schema';
import {
  findMilestone,
  loadMilestonesWithEscrows,
  milestoneRecord,
  type MilestoneRow,
  type MilestoneWithEscrow,
  type TransactionGraph,
  type TransactionRow,
} from '../records/transaction-graph';
import { accountsToLockFirst, lockLedgerAccounts, netMovements, stageTransfer } from './post-transfer';

export type ActionContext = {
  tx: Tx;
  client: ClientRow;
  graph: TransactionGraph;
  entry: MilestoneWithEscrow;
  now: Date;
  to: MilestoneStatus;
  /** Locks ledger accounts (in id order) and returns their balances, for an action that must read one first. */
  lockAccounts: (accountIds: string[]) => Promise<Map<string, number>>;
};

/** What an action did beyond the status change: the log line and the transaction's running totals. */
export type ActionEffect = RunningTotals & { log: string };
type RunningTotals = { fundedKobo?: number; refundedKobo?: number; disbursedKobo?: number };

/** A milestone action's effect: also the milestone's other changed columns and the money it moves. */
export type MilestoneActionEffect = ActionEffect & {
  milestone?: Partial<Omit<MilestoneRow, 'id' | 'status' | 'updatedAt'>>;
  transfer?: { transfer: Transfer; description: string };
};

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

export function milestoneLogInsert(a: { milestoneId: string; actor: LogActor; message: string; now: Date; automatic?: boolean }) {
  return insertRows(milestoneLogs, [
    {
      id: uuidv7(),
      milestoneId: a.milestoneId,
      actor: a.actor,
      logMessage: a.message,
      isAutomatic: a.automatic ?? false,
      createdAt: a.now,
      updatedAt: a.now,
    },
  ]);
}

export async function writeMilestoneLog(tx: Tx, a: { milestoneId: string; actor: LogActor; message: string; now: Date; automatic?: boolean }) {
  const batch = new WriteBatch();
  batch.add(milestoneLogInsert(a));
  await batch.flush(tx);
}

/**
 * The transaction's status and current milestone follow from its milestones (decisions §5: never
 * stale): the columns to set, given the milestones as they now stand.
 */
function progressOf(milestonesNow: MilestoneWithEscrow[], now: Date) {
  const progress = transactionProgress(milestonesNow.map((e) => ({ id: e.milestone.id, status: e.milestone.status as MilestoneStatus, position: e.milestone.position })));
  return {
    status: progress.status,
    currentMilestoneId: progress.current?.id ?? null,
    isCompleted: progress.isCompleted,
    onLastMilestone: progress.onLastMilestone,
    approvedAt: progress.isCompleted ? now : null,
    updatedAt: now,
  };
}

function totalsUpdate(a: RunningTotals) {
  return {
    totalAmountFundedKobo: sql`${transactions.totalAmountFundedKobo} + ${a.fundedKobo ?? 0}`,
    totalAmountRefundedKobo: sql`${transactions.totalAmountRefundedKobo} + ${a.refundedKobo ?? 0}`,
    totalAmountDisbursedKobo: sql`${transactions.totalAmountDisbursedKobo} + ${a.disbursedKobo ?? 0}`,
  };
}

/** totalsUpdate for a WriteBatch's update of the transaction row. */
function totalsIncrement(a: RunningTotals) {
  return {
    totalAmountFundedKobo: writeSql`total_amount_funded_kobo + ${a.fundedKobo ?? 0}`,
    totalAmountRefundedKobo: writeSql`total_amount_refunded_kobo + ${a.refundedKobo ?? 0}`,
    totalAmountDisbursedKobo: writeSql`total_amount_disbursed_kobo + ${a.disbursedKobo ?? 0}`,
  };
}

/** Recomputes the transaction's status from its milestones as stored, and returns both as they now stand. */
export async function refreshTransaction(
  tx: Tx,
  a: RunningTotals & { transactionId: string; now: Date },
): Promise<{ transaction: TransactionRow; milestones: MilestoneWithEscrow[] }> {
  const ms = await loadMilestonesWithEscrows(tx, a.transactionId);
  const [transaction] = await tx
    .update(transactions)
    .set({ ...progressOf(ms, a.now), ...totalsUpdate(a) })
    .where(eq(transactions.id, a.transactionId))
    .returning();
  if (!transaction) throw new Error(`transaction ${a.transactionId} vanished while it was locked`);
  return { transaction, milestones: ms };
}

/**
 * The graph after the action, computed from the locked graph and the action's changes, as the batch
 * will store them: the response and the event need no second read.
 */
function graphAfter(graph: TransactionGraph, entry: MilestoneWithEscrow, to: MilestoneStatus, effect: MilestoneActionEffect, now: Date): TransactionGraph {
  const escrowMovement = effect.transfer ? (netMovements(effect.transfer.transfer).get(entry.escrow.id) ?? 0) : 0;
  const changed: MilestoneWithEscrow = {
    milestone: { ...entry.milestone, ...effect.milestone, status: to, updatedAt: now },
    escrow: escrowMovement === 0 ? entry.escrow : { ...entry.escrow, balanceKobo: entry.escrow.balanceKobo + escrowMovement, updatedAt: now },
  };
  const milestonesNow = graph.milestones.map((e) => (e.milestone.id === entry.milestone.id ? changed : e));
  const t = graph.transaction;
  const transaction: TransactionRow = {
    ...t,
    ...progressOf(milestonesNow, now),
    totalAmountFundedKobo: t.totalAmountFundedKobo + (effect.fundedKobo ?? 0),
    totalAmountRefundedKobo: t.totalAmountRefundedKobo + (effect.refundedKobo ?? 0),
    totalAmountDisbursedKobo: t.totalAmountDisbursedKobo + (effect.disbursedKobo ?? 0),
  };
  return { ...graph, transaction, milestones: milestonesNow };
}

/**
 * A milestone action on a transaction whose row lock is held and whose lapsed deadlines are settled
 * (runMilestoneAction), or that a lapse takes (apply-lapses): wrong state (409) → apply → the milestone's
 * changes, the money, the log line, the transaction's status and the event, written together as one
 * statement (WriteBatch). Without a `role` the service itself acts (a lapsed deadline): logged as automatic.
 */
export async function applyMilestoneAction(
  tx: Tx,
  a: {
    client: ClientRow;
    graph: TransactionGraph;
    /** Accounts already locked with the transaction, with their balances. */
    balances: Map<string, number>;
    milestoneId: string;
    action: MilestoneAction;
    role?: PartyRole;
    now: Date;
    apply: (ctx: ActionContext) => Promise<MilestoneActionEffect>;
  },
): Promise<TransactionGraph> {
  const { graph, balances } = a;
  const automatic = a.role === undefined;
  const actor: LogActor = a.role ?? 'system';
  const entry = findMilestone(graph, a.milestoneId);
  const state = (e: MilestoneWithEscrow) => ({ id: e.milestone.id, status: e.milestone.status as MilestoneStatus, position: e.milestone.position });
  const decision = decideMilestoneAction(a.action, state(entry), graph.milestones.map(state));
  if (!decision.ok) throw invalidState(decision.message);

  // Every account locked so far, with its balance: an account is locked once it is in here.
  const lockAccounts = async (ids: string[]) => {
    if (ids.some((id) => !balances.has(id))) for (const [id, balance] of await lockLedgerAccounts(tx, ids)) balances.set(id, balance);
    return balances;
  };
  const effect = await a.apply({ tx, client: a.client, graph, entry, now: a.now, to: decision.to, lockAccounts });

  const batch = new WriteBatch();
  if (effect.transfer) {
    // A lapsed deadline's action runs inside another operation's transaction, which goes on writing
    // after it: only a party's own action ends with its batch, so only there may a house account wait for it.
    const accounts = automatic ? effect.transfer.transfer.postings.map((p) => p.accountId) : accountsToLockFirst(effect.transfer.transfer, a.client);
    await lockAccounts(accounts);
    stageTransfer(batch, { clientId: a.client.id, transfer: effect.transfer.transfer, milestoneId: a.milestoneId, description: effect.transfer.description, now: a.now });
  }
  batch.add(updateById(milestones, a.milestoneId, { ...effect.milestone, status: decision.to, updatedAt: a.now }));
  batch.add(milestoneLogInsert({ milestoneId: a.milestoneId, actor, message: effect.log, now: a.now, automatic }));
  const updated = graphAfter(graph, entry, decision.to, effect, a.now);
  const { status, currentMilestoneId, isCompleted, onLastMilestone, approvedAt, updatedAt } = updated.transaction;
  batch.add(updateById(transactions, graph.transaction.id, { status, currentMilestoneId, isCompleted, onLastMilestone, approvedAt, updatedAt, ...totalsIncrement(effect) }));
  stageEvent(batch, {
    clientId: a.client.id,
    type: EVENT_OF[a.action],
    transactionId: graph.transaction.id,
    milestoneId: a.milestoneId,
    data: { actor, automatic, message: effect.log, milestone: milestoneRecord(updated, a.milestoneId) },
    now: a.now,
  });
  // A party's own action is a database transaction of its own (runMilestoneAction), so its batch is the
  // last statement; a lapsed deadline's action runs inside another operation's transaction, which goes on after it.
  if (automatic) await batch.flush(tx);
  else await batch.flushWithCommit(tx);
  return updated;
}
