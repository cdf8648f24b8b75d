import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Transfer } from '@/lib/escrow/ledger';
import { ACTING_PARTY, decideMilestoneAction, transactionProgress, type MilestoneAction, type MilestoneStatus } from '@/lib/escrow/milestone-machine';
import type { Db, Tx } from '../db/client';
import { milestoneLogs, milestones, transactions } from '../db/schema';
import { insertRows, updateById, WriteBatch, writeSql } from '../db/write-batch';
import { stageEvent, type EventType } from '../events/record-event';
import { uuidv7 } from '../ids';
import { invalidState, notFound } from '../app-error';
import type { ClientRow } from '../db/schema';
import {
  findMilestone,
  loadMilestonesAndDueOfMilestone,
  loadMilestonesWithEscrows,
  lockTransactionWithParties,
  milestoneRecord,
  type MilestoneRow,
  type MilestoneWithEscrow,
  type TransactionGraph,
  type TransactionRow,
} from '../records/transaction-graph';
import { settleDueDeadlines } from '../deadlines/settle';
import { assertActingParty } from './parties';
import { accountsToLockFirst, lockAccountsOfMilestone, lockLedgerAccounts, netMovements, stageTransfer, type MilestoneAccount } from './post-transfer';

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
 * Locks the milestone's transaction row for the rest of the database transaction. Every writer of a
 * transaction's milestones or disputes takes this lock first, so racing requests queue here and the
 * loser sees the winner's state. The milestones are read after the lock, so they are current.
 */
export async function lockTransactionOfMilestone(tx: Tx, client: ClientRow, milestoneId: string, now: Date | undefined): Promise<TransactionGraph> {
  return (await lockGraphAndAccounts(tx, client, milestoneId, now, [])).graph;
}

/**
 * lockTransactionOfMilestone, and then the milestone's own ledger accounts named by `parts`
 * (lockAccountsOfMilestone), with their balances. The accounts come back only when no deadline was
 * settled first: settling moves money, and the caller then locks what it needs after it.
 */
async function lockGraphAndAccounts(
  tx: Tx,
  client: ClientRow,
  milestoneId: string,
  now: Date | undefined,
  parts: readonly MilestoneAccount[],
): Promise<{ graph: TransactionGraph; balances: Map<string, number> }> {
  // The statements are sent at once; the database runs each after the one before has its locks, and
  // reads with a snapshot of its own, so the milestones are as current as if read after the answer.
  const at = now ?? new Date(0);
  const [locked, { milestones: current, due }, balances] = await Promise.all([
    lockTransactionWithParties(tx, client.id, milestoneId),
    loadMilestonesAndDueOfMilestone(tx, milestoneId, at),
    lockAccountsOfMilestone(tx, { clientId: client.id, milestoneId, parts, now: at }),
  ]);
  if (!locked) throw notFound('Milestone', milestoneId);
  if (!now) return { graph: { ...locked, milestones: current }, balances };
  // A deadline that has passed has already acted, whether or not the runner got there first
  // (decisions §5, §6): the request is judged against the state after the lapse.
  if (!due || (await settleDueDeadlines(tx, client, locked.transaction.id, now, { due })) === 0) return { graph: { ...locked, milestones: current }, balances };
  const settled = await lockTransactionWithParties(tx, client.id, milestoneId);
  if (!settled) throw notFound('Milestone', milestoneId);
  return { graph: { ...settled, milestones: await loadMilestonesWithEscrows(tx, settled.transaction.id) }, balances: new Map() };
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
 * The shape every milestone operation shares: lock → unknown id (404) → wrong party (403) →
 * wrong state (409) → apply → the milestone's changes, the money, the log line, the transaction's
 * status and the event, written together as one statement (WriteBatch), all in one database transaction.
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
    /**
     * The milestone's accounts the action's transfer moves, locked with the transaction (one round trip
     * fewer); any other account of the transfer is locked before its write, as without this.
     */
    moves?: readonly MilestoneAccount[];
    apply: (ctx: ActionContext) => Promise<MilestoneActionEffect>;
  },
): Promise<TransactionGraph> {
  return db.transaction(async (tx) => {
    // The service's own actions run while deadlines are being settled: no settling inside them, and a
    // lapse's transfer has all its accounts locked in one statement, house accounts included.
    const { actingId } = a;
    const automatic = actingId === undefined;
    const { graph, balances } = await lockGraphAndAccounts(tx, a.client, a.milestoneId, automatic ? undefined : a.now, automatic ? [] : (a.moves ?? []));
    const role = ACTING_PARTY[a.action];
    if (!automatic) {
      await assertActingParty(tx, { clientId: a.client.id, role, givenId: actingId, expected: graph[role].party, field: `${role}_id` });
    }
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
    batch.add(milestoneLogInsert({ milestoneId: a.milestoneId, actor: automatic ? 'system' : role, message: effect.log, now: a.now, automatic }));
    const updated = graphAfter(graph, entry, decision.to, effect, a.now);
    const { status, currentMilestoneId, isCompleted, onLastMilestone, approvedAt, updatedAt } = updated.transaction;
    batch.add(updateById(transactions, graph.transaction.id, { status, currentMilestoneId, isCompleted, onLastMilestone, approvedAt, updatedAt, ...totalsIncrement(effect) }));
    stageEvent(batch, {
      clientId: a.client.id,
      type: EVENT_OF[a.action],
      transactionId: graph.transaction.id,
      milestoneId: a.milestoneId,
      data: { actor: automatic ? 'system' : role, automatic, message: effect.log, milestone: milestoneRecord(updated, a.milestoneId) },
      now: a.now,
    });
    // A party's own action is a transaction of its own (a Db, not a Tx), so its batch is the last statement;
    // a lapsed deadline's action runs inside another operation's transaction, which goes on after it.
    if (automatic) await batch.flush(tx);
    else await batch.flushWithCommit(tx);
    return updated;
  });
}
