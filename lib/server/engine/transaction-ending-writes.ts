import 'server-only';
import { eq, inArray, sql } from 'drizzle-orm';
import type { TransactionWithMilestonesRecord } from '@/lib/contracts/records';
import { endingPlan, type EndingPlan } from '@/lib/escrow/ending';
import { refund } from '@/lib/escrow/ledger';
import type { PartyRole, TransactionEnding } from '@/lib/escrow/milestone-machine';
import { formatNaira } from '@/lib/escrow/money';
import type { Tx } from '../db/client';
import { runAsOneStatement, type Write } from '../db/one-statement';
import { milestoneLogs, milestones, transactions, type CancellationRequestJson, type ClientRow } from '../db/schema';
import { eventWrites, type EventType } from '../events/record-event';
import { uuidv7 } from '../ids';
import type { TransactionGraph } from '../records/transaction-graph/queries';
import { endingStateOf } from '../records/transaction-graph/domain';
import { transactionWithMilestonesRecord } from '../records/transaction-graph/present';
import type { LogActor } from './milestone-action';
import { declineUnansweredExtension } from './milestone-extension-writes';
import { lockLedgerAccounts, transfersWrites, type TransferInput } from './post-transfer';

/** A transaction's log line, kept on the milestone the parties are at (the first unfinished, else the last). */
function logMilestoneId(graph: TransactionGraph): string {
  return graph.transaction.currentMilestoneId ?? graph.milestones[graph.milestones.length - 1]!.milestone.id;
}

/**
 * Who writes a change of the transaction as a whole: a party by its own operation, or the service when a
 * request lapses unanswered (logged as automatic, actor `system`). `endedBy` is the party named as ending it.
 */
export type Writer = { tx: Tx; client: ClientRow; graph: TransactionGraph; now: Date; last: (write: Promise<unknown>) => void; actor: LogActor; automatic: boolean; endedBy: PartyRole };

function logRow(w: Writer, milestoneId: string, message: string) {
  return { id: uuidv7(), milestoneId, actor: w.actor, logMessage: message, isAutomatic: w.automatic, createdAt: w.now, updatedAt: w.now };
}

/** A change of the transaction row that moves no money: a cancellation request (due to be answered by `dueAt`), or its decline. */
export function writeRequestChange(
  w: Writer,
  a: { request: CancellationRequestJson | null; dueAt: Date | null; log: string; event: EventType; reason: string | null },
): TransactionWithMilestonesRecord {
  const { tx, graph, now } = w;
  const t = graph.transaction;
  const after: TransactionGraph = { ...graph, transaction: { ...t, cancellationRequest: a.request, cancellationResponseDueAt: a.dueAt, updatedAt: now } };
  const record = transactionWithMilestonesRecord(after, now);
  const event = eventWrites({
    clientId: w.client.id,
    type: a.event,
    transactionId: t.id,
    data: { actor: w.actor, automatic: w.automatic, message: a.log, reason: a.reason, transaction: record },
    now,
  });
  w.last(
    runAsOneStatement(tx, 'transaction_request', [
      tx.update(transactions).set({ cancellationRequest: a.request, cancellationResponseDueAt: a.dueAt, updatedAt: now }).where(eq(transactions.id, t.id)),
      tx.insert(milestoneLogs).values(logRow(w, logMilestoneId(graph), a.log)),
      ...event.writes,
    ]),
  );
  return record;
}

/**
 * Ends the transaction by a plan (lib/escrow/ending.ts): each milestone it cancels becomes CANCELED, each
 * escrow still holding the buyer's money goes back to the buyer's wallet in full (the buyer's prepaid fee
 * share too: no fee is charged on money that was never released), and the transaction takes the ending's
 * status, all in one statement with the refunds' ledger entries, a log line per milestone and the event.
 */
export async function writeEnding(w: Writer, a: { ended: TransactionEnding; plan: EndingPlan; reason: string; why: string; event: EventType }): Promise<TransactionWithMilestonesRecord> {
  const { tx, client, now } = w;
  // A canceled milestone has no due date left to move: its pending extension request is answered first.
  let graph = w.graph;
  for (const id of a.plan.canceled) graph = await declineUnansweredExtension(tx, client, graph, id, now, `the transaction was ${a.ended === 'CANCELED' ? 'canceled' : 'terminated'}`);
  const t = graph.transaction;
  const buyerWalletId = graph.buyer.organisation.walletId;
  const refunded = graph.milestones.filter(({ milestone }) => a.plan.refunded.includes(milestone.id));
  const balances = refunded.length > 0 ? await lockLedgerAccounts(tx, [buyerWalletId, ...refunded.map(({ escrow }) => escrow.id)]) : new Map<string, number>();
  // Each escrow goes back whole: what it holds is what the buyer gets.
  const held = refunded
    .map(({ milestone, escrow }) => ({ milestone, escrowId: escrow.id, escrowBalance: balances.get(escrow.id) ?? 0 }))
    .filter((r) => r.escrowBalance > 0);
  const refunds: TransferInput[] = held.map((r) => ({
    clientId: client.id,
    milestoneId: r.milestone.id,
    transfer: refund({ escrowId: r.escrowId, buyerWalletId, escrowBalance: r.escrowBalance }),
    description: `Refund of milestone ${r.milestone.position}: transaction ${a.ended === 'CANCELED' ? 'canceled' : 'terminated'}`,
    now,
  }));
  const refundOf = new Map(held.map((r) => [r.milestone.id, r.escrowBalance]));
  const refundedKobo = held.reduce((sum, r) => sum + r.escrowBalance, 0);

  const canceled = new Set(a.plan.canceled);
  const milestonesAfter = graph.milestones.map(({ milestone, escrow }) => ({
    milestone: canceled.has(milestone.id) ? { ...milestone, status: 'CANCELED', updatedAt: now } : milestone,
    escrow: refundOf.has(milestone.id) ? { ...escrow, balanceKobo: 0, updatedAt: now } : escrow,
  }));
  const transactionAfter = {
    ...t,
    status: a.ended,
    dateCanceled: now,
    cancellationRequest: null,
    cancellationResponseDueAt: null,
    endedBy: w.endedBy,
    endReason: a.reason,
    totalAmountRefundedKobo: t.totalAmountRefundedKobo + refundedKobo,
    updatedAt: now,
  };
  const after: TransactionGraph = { ...graph, transaction: transactionAfter, milestones: milestonesAfter };
  const record = transactionWithMilestonesRecord(after, now);
  const verb = a.ended === 'CANCELED' ? 'canceled' : 'terminated';
  const by = w.automatic ? 'automatically' : `by the ${w.actor}`;
  const logs = a.plan.canceled.map((id) => {
    const back = refundOf.get(id);
    return logRow(w, id, `Transaction ${verb} ${by} (${a.why}): milestone canceled${back ? `; ${formatNaira(back)} returned from escrow to the buyer's wallet` : ''}.`);
  });
  const message = `Transaction ${verb} ${by}: ${a.plan.canceled.length} unfinished milestone${a.plan.canceled.length === 1 ? '' : 's'} canceled, ${formatNaira(refundedKobo)} returned to the buyer.`;
  const event = eventWrites({
    clientId: client.id,
    type: a.event,
    transactionId: t.id,
    data: { actor: w.actor, automatic: w.automatic, message, reason: a.reason, transaction: record },
    now,
  });
  const writes: Write[] = [
    ...transfersWrites(refunds),
    ...(a.plan.canceled.length > 0 ? [tx.update(milestones).set({ status: 'CANCELED', updatedAt: now }).where(inArray(milestones.id, a.plan.canceled))] : []),
    ...(logs.length > 0 ? [tx.insert(milestoneLogs).values(logs)] : []),
    sql`update transactions set status = ${a.ended}, date_canceled = ${now.toISOString()}::timestamptz, cancellation_request = null,
      cancellation_response_due_at = null, ended_by = ${w.endedBy},
      end_reason = ${a.reason}, total_amount_refunded_kobo = ${transactionAfter.totalAmountRefundedKobo}::bigint, updated_at = ${now.toISOString()}::timestamptz
      where id = ${t.id}::uuid`,
    ...event.writes,
  ];
  w.last(runAsOneStatement(tx, 'end_transaction', writes));
  return record;
}

/**
 * A cancellation request left unanswered past its deadline (lib/escrow/lapses.ts), inside the operation
 * or runner transaction that holds the transaction's row lock: approved (the requester's cancellation,
 * the escrows refunded) or declined, by the service.
 */
export async function settleLapsedRequest(tx: Tx, client: ClientRow, graph: TransactionGraph, outcome: 'approve' | 'decline', now: Date): Promise<void> {
  const asked = endingStateOf(graph).cancellationRequest;
  if (!asked) throw new Error(`transaction ${graph.transaction.id} has no cancellation request to lapse`);
  let written: Promise<unknown> | undefined;
  const w: Writer = { tx, client, graph, now, last: (write) => (written = write), actor: 'system', automatic: true, endedBy: asked.requestedBy };
  if (outcome === 'approve') {
    const why = `the ${asked.requestedBy} asked and the buyer did not answer in time`;
    await writeEnding(w, { ended: 'CANCELED', plan: endingPlan(endingStateOf(graph).milestones), reason: asked.reason, why, event: 'transaction.canceled' });
  } else {
    writeRequestChange(w, {
      request: null,
      dueAt: null,
      reason: null,
      log: `The ${asked.requestedBy}'s cancellation request went unanswered and was declined automatically. The transaction goes on.`,
      event: 'transaction.cancellation_declined',
    });
  }
  await written;
}
