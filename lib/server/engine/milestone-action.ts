import 'server-only';
import { sql } from 'drizzle-orm';
import type { Transfer } from '@/lib/escrow/ledger';
import { decideMilestoneAction, transactionProgress, type MilestoneAction, type MilestoneStatus, type PartyRole } from '@/lib/escrow/milestone-machine';
import type { Tx } from '../db/client';
import { oneStatement, runAsOneStatement, type BuiltStatement, type Write } from '../db/one-statement';
import { milestoneLogs, milestones, transactions } from '../db/schema';
import { eventsInBulk, eventWrites, type EventType } from '../events/record-event';
import { uuidv7 } from '../ids';
import { invalidState } from '../app-error';
import type { ClientRow } from '../db/schema';
import {
  findMilestone,
  type MilestoneLogRow,
  type MilestoneRow,
  type MilestoneWithEscrow,
  type TransactionGraph,
  type TransactionRow,
} from '../records/transaction-graph/queries';
import { milestoneRecord } from '../records/transaction-graph/present';
import { autoPayoutOf, type AutoPayout } from '../payouts/payouts';
import { accountsToLockFirst, lockLedgerAccounts, netMovements, transfersInBulk, transfersWrites, type TransferInput } from './post-transfer';
import { insertRows, updateById, updateRows } from '../db/recordset';

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
  /** Who is logged as acting when it is not the party itself: the marketplace acting for the buyer. */
  actor?: LogActor;
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

/**
 * The transaction's status and current milestone follow from its milestones (docs/decisions.md §5: never
 * stale): its columns as they stand once the milestones are as given.
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

type MilestoneChange = Partial<Omit<MilestoneRow, 'id' | 'updatedAt'>>;

/** A milestone or dispute step: what it changes beside its own rows, all written in one statement by writeStep. */
export type Step = {
  client: ClientRow;
  /** The transaction as locked, with its milestones as they now stand. */
  graph: TransactionGraph;
  milestoneId: string;
  now: Date;
  /** The milestone's changed columns. */
  milestone?: MilestoneChange;
  /** Money moved: its accounts locked already, but for a house account left to this write (accountsToLockFirst). */
  transfer?: { transfer: Transfer; description: string };
  totals?: RunningTotals;
  log: { actor: LogActor; message: string; automatic: boolean };
  /** The step's own rows (a dispute's insert or update), written in the same statement. */
  rows?: Write[];
  /** The payout the step's release starts (auto_payout): its accounts locked with the step's. */
  payout?: AutoPayout;
  event: { type: EventType; disputeId?: string; data: (after: TransactionGraph, log: MilestoneLogRow) => unknown };
};

/**
 * The graph after a step, computed from the locked graph and the step's changes as writeStep stores them:
 * the response and the event need no second read.
 */
function graphAfter(step: Step): TransactionGraph {
  const { graph, now } = step;
  const milestonesNow = graph.milestones.map((entry) => {
    if (entry.milestone.id !== step.milestoneId) return entry;
    const escrowMovement = step.transfer ? (netMovements(step.transfer.transfer).get(entry.escrow.id) ?? 0) : 0;
    return {
      ...entry,
      milestone: step.milestone ? { ...entry.milestone, ...step.milestone, updatedAt: now } : entry.milestone,
      escrow: escrowMovement === 0 ? entry.escrow : { ...entry.escrow, balanceKobo: entry.escrow.balanceKobo + escrowMovement, updatedAt: now },
    };
  });
  const t = graph.transaction;
  const transaction: TransactionRow = {
    ...t,
    ...progressOf(milestonesNow, now),
    totalAmountFundedKobo: t.totalAmountFundedKobo + (step.totals?.fundedKobo ?? 0),
    totalAmountRefundedKobo: t.totalAmountRefundedKobo + (step.totals?.refundedKobo ?? 0),
    totalAmountDisbursedKobo: t.totalAmountDisbursedKobo + (step.totals?.disbursedKobo ?? 0),
  };
  return { ...graph, transaction, milestones: milestonesNow };
}

/**
 * What a step writes, as values: the graph after it, its log line, its money, the transaction's new
 * columns and its event. The transaction row is locked, so the values computed from it are written as
 * they are. writeStep writes one step; stepsInBulkStatement many.
 */
function stepOutcome(step: Step) {
  const { client, now } = step;
  const after = graphAfter(step);
  const log: MilestoneLogRow = {
    id: uuidv7(),
    milestoneId: step.milestoneId,
    actor: step.log.actor,
    logMessage: step.log.message,
    isAutomatic: step.log.automatic,
    createdAt: now,
    updatedAt: now,
  };
  const t = after.transaction;
  const transfers: TransferInput[] = [
    ...(step.transfer ? [{ clientId: client.id, milestoneId: step.milestoneId, ...step.transfer, now }] : []),
    ...(step.payout ? [step.payout.transfer] : []),
  ];
  const transaction = {
    id: t.id,
    status: t.status,
    currentMilestoneId: t.currentMilestoneId,
    isCompleted: t.isCompleted,
    onLastMilestone: t.onLastMilestone,
    approvedAt: t.approvedAt,
    updatedAt: now,
    totalAmountFundedKobo: t.totalAmountFundedKobo,
    totalAmountRefundedKobo: t.totalAmountRefundedKobo,
    totalAmountDisbursedKobo: t.totalAmountDisbursedKobo,
  };
  const milestone = step.milestone && { ...step.milestone, updatedAt: now };
  const event = {
    type: step.event.type,
    transactionId: t.id,
    milestoneId: step.milestoneId,
    disputeId: step.event.disputeId,
    data: step.event.data(after, log),
    now,
  };
  return { after, log, transfers, transaction, milestone, event };
}

/**
 * Writes a step as one statement: the money, the milestone's changes, its log line, the transaction's
 * status and running totals, the step's own rows and the event. The statement is sent, not awaited:
 * `written` says how it went (a step that ends its transaction hands it to transactionWithLastWrite).
 */
export function writeStep(tx: Tx, step: Step): { graph: TransactionGraph; log: MilestoneLogRow; written: Promise<void> } {
  const { client, now } = step;
  const { after, log, transfers, transaction: t, milestone, event } = stepOutcome(step);
  const at = now.toISOString();
  const written = runAsOneStatement(tx, 'step', [
    ...transfersWrites(transfers),
    ...(milestone ? [updateById(milestones, step.milestoneId, milestone)] : []),
    sql`insert into milestone_logs (id, milestone_id, actor, log_message, is_automatic, created_at, updated_at)
      values (${log.id}::uuid, ${log.milestoneId}::uuid, ${log.actor}, ${log.logMessage}, ${log.isAutomatic}, ${at}::timestamptz, ${at}::timestamptz)`,
    sql`update transactions set status = ${t.status}, current_milestone_id = ${t.currentMilestoneId}::uuid, is_completed = ${t.isCompleted},
      on_last_milestone = ${t.onLastMilestone}, approved_at = ${t.approvedAt?.toISOString() ?? null}::timestamptz, updated_at = ${at}::timestamptz,
      total_amount_funded_kobo = ${t.totalAmountFundedKobo}::bigint, total_amount_refunded_kobo = ${t.totalAmountRefundedKobo}::bigint,
      total_amount_disbursed_kobo = ${t.totalAmountDisbursedKobo}::bigint
      where id = ${t.id}::uuid`,
    ...(step.rows ?? []),
    ...(step.payout?.writes ?? []),
    ...eventWrites({ clientId: client.id, ...event }).writes,
  ]);
  return { graph: after, log, written };
}

/**
 * Many steps of one client, each on a transaction of its own, as one statement of a few writes per table
 * whatever their number (the deadline runner's batch), built and rendered here and run by its `execute()`.
 * Their accounts, house accounts included, must be locked before it runs; a step with rows of its own or a
 * payout is written by writeStep. `pause` is awaited between steps as their rows are built.
 */
export async function stepsInBulkStatement(tx: Tx, client: ClientRow, steps: Step[], pause: (index: number) => Promise<void>): Promise<BuiltStatement> {
  if (steps.length === 0) return oneStatement(tx, 'steps_in_bulk', []);
  if (steps.some((s) => s.rows || s.payout)) throw new Error('a step with rows of its own or a payout is written by writeStep');
  const outcomes = [];
  for (const [i, step] of steps.entries()) {
    await pause(i);
    outcomes.push(stepOutcome(step));
  }
  // A statement sets the same columns on every row it updates: one update per shape of milestone change.
  const milestoneChanges = new Map<string, (NonNullable<(typeof outcomes)[number]['milestone']> & { id: string })[]>();
  outcomes.forEach(({ milestone }, i) => {
    if (!milestone) return;
    const shape = Object.keys(milestone).sort().join();
    milestoneChanges.set(shape, [...(milestoneChanges.get(shape) ?? []), { id: steps[i]!.milestoneId, ...milestone }]);
  });
  return oneStatement(tx, 'steps_in_bulk', [
    ...transfersInBulk(outcomes.flatMap((o) => o.transfers)),
    ...[...milestoneChanges.values()].map((rows) => updateRows(milestones, rows)),
    insertRows(milestoneLogs, outcomes.map((o) => o.log)),
    updateRows(transactions, outcomes.map((o) => o.transaction)),
    ...eventsInBulk(client.id, outcomes.map((o) => o.event)),
  ]);
}

/** The status a milestone action moves the milestone to, or 409 when its state does not allow it. */
export function decideMilestoneStatus(graph: TransactionGraph, milestoneId: string, action: MilestoneAction): MilestoneStatus {
  const state = (e: MilestoneWithEscrow) => ({ id: e.milestone.id, status: e.milestone.status as MilestoneStatus, position: e.milestone.position });
  const decision = decideMilestoneAction(action, state(findMilestone(graph, milestoneId)), graph.milestones.map(state));
  if (!decision.ok) throw invalidState(decision.message);
  return decision.to;
}

/** The step of a milestone action once its effect is known. Without a `role` the service itself acts (a lapsed deadline): logged as automatic. */
export function milestoneActionStep(
  a: { client: ClientRow; graph: TransactionGraph; milestoneId: string; action: MilestoneAction; role?: PartyRole; now: Date },
  to: MilestoneStatus,
  effect: MilestoneActionEffect,
  payout?: AutoPayout,
): Step {
  return milestoneStep({ ...a, event: EVENT_OF[a.action] }, to, effect, payout);
}

/** A step that moves a milestone to `to` with its effect and emits `event`; milestoneActionStep for any milestone step. */
function milestoneStep(
  a: { client: ClientRow; graph: TransactionGraph; milestoneId: string; event: EventType; role?: PartyRole; now: Date },
  to: MilestoneStatus,
  effect: MilestoneActionEffect,
  payout?: AutoPayout,
): Step {
  const automatic = a.role === undefined;
  const actor: LogActor = effect.actor ?? a.role ?? 'system';
  return {
    client: a.client,
    graph: a.graph,
    milestoneId: a.milestoneId,
    now: a.now,
    milestone: { ...effect.milestone, status: to },
    transfer: effect.transfer,
    payout,
    totals: effect,
    log: { actor, message: effect.log, automatic },
    event: {
      type: a.event,
      data: (after) => ({ actor, automatic, message: effect.log, milestone: milestoneRecord(after, a.milestoneId) }),
    },
  };
}

/**
 * A milestone action on a transaction whose row lock is held and whose lapsed deadlines are settled
 * (runMilestoneAction), or that a lapse takes (apply-lapses): wrong state (409) → apply → the milestone's
 * changes, the money, the log line, the transaction's status and the event, written together as one
 * statement (writeStep). Without a `role` the service itself acts (a lapsed deadline): logged as automatic.
 * Given `last`, the step ends its transaction (transactionWithLastWrite); otherwise it is written before
 * this returns.
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
  last?: (write: Promise<unknown>) => void,
): Promise<TransactionGraph> {
  const { graph, balances } = a;
  const entry = findMilestone(graph, a.milestoneId);
  const to = decideMilestoneStatus(graph, a.milestoneId, a.action);

  // Every account locked so far, with its balance: an account is locked once it is in here.
  const lockAccounts = async (ids: string[]) => {
    if (ids.some((id) => !balances.has(id))) for (const [id, balance] of await lockLedgerAccounts(tx, ids)) balances.set(id, balance);
    return balances;
  };
  const effect = await a.apply({ tx, client: a.client, graph, entry, now: a.now, to, lockAccounts });
  return writeMilestoneStep(tx, { ...a, event: EVENT_OF[a.action], to, effect, lockAccounts }, last);
}

/**
 * Writes a milestone step whose effect is known (writeStep): the automatic payout its release starts, its
 * accounts locked first (a party's own step leaves one house account to its write), then the step. Given
 * `last`, the step ends its transaction (transactionWithLastWrite); otherwise it is written before this returns.
 */
export async function writeMilestoneStep(
  tx: Tx,
  a: {
    client: ClientRow;
    graph: TransactionGraph;
    milestoneId: string;
    event: EventType;
    role?: PartyRole;
    now: Date;
    to: MilestoneStatus;
    effect: MilestoneActionEffect;
    lockAccounts: (accountIds: string[]) => Promise<unknown>;
  },
  last?: (write: Promise<unknown>) => void,
): Promise<TransactionGraph> {
  const { graph, effect } = a;
  const payout = effect.transfer
    ? await autoPayoutOf(tx, a.client, {
        sellerUserId: graph.seller.user.id,
        sellerWalletId: graph.seller.organisation.walletId,
        release: effect.transfer.transfer,
        milestoneId: a.milestoneId,
        now: a.now,
      })
    : undefined;
  if (effect.transfer) {
    const moved = { kind: effect.transfer.transfer.kind, postings: [...effect.transfer.transfer.postings, ...(payout?.transfer.transfer.postings ?? [])] };
    // A lapsed deadline's action runs inside another operation's transaction, which goes on writing
    // after it: only a step that ends its transaction may leave a house account to its own write.
    await a.lockAccounts(last ? accountsToLockFirst(moved, a.client) : moved.postings.map((p) => p.accountId));
  }
  const { graph: updated, written } = writeStep(tx, milestoneStep(a, a.to, effect, payout));
  // A party's own action ends its transaction with the step (runMilestoneAction); a lapse's action runs
  // inside another operation's transaction, which goes on after it.
  if (last) last(written);
  else await written;
  return updated;
}
