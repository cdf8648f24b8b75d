import 'server-only';
import { eq, inArray, sql } from 'drizzle-orm';
import type { TransactionWithMilestonesRecord } from '@/lib/contracts/records';
import { decideCancel, decideCancellationAnswer, decideTerminate, type EndingPlan, type Refusal } from '@/lib/escrow/ending';
import { refund } from '@/lib/escrow/ledger';
import type { PartyRole, TransactionEnding } from '@/lib/escrow/milestone-machine';
import { formatNaira } from '@/lib/escrow/money';
import type { Db } from '../db/client';
import { runAsOneStatement, type Write } from '../db/one-statement';
import { milestoneLogs, milestones, transactions, type CancellationRequestJson, type ClientRow } from '../db/schema';
import { eventWrites, type EventType } from '../events/record-event';
import { uuidv7 } from '../ids';
import { AppError } from '../app-error';
import { endingStateOf, transactionWithMilestonesRecord, type TransactionGraph } from '../records/transaction-graph';
import { lockLedgerAccounts, transfersWrites, type TransferInput } from './post-transfer';
import { runTransactionAction, type TransactionActor, type TransactionContext } from './transaction-action';

type Outcome = { message: string; transaction: TransactionWithMilestonesRecord };

const other = (role: PartyRole): PartyRole => (role === 'buyer' ? 'seller' : 'buyer');

function refused(refusal: Refusal): AppError {
  return new AppError(refusal.code, refusal.message);
}

/** A transaction's log line, kept on the milestone the parties are at (the first unfinished, else the last). */
function logMilestoneId(graph: TransactionGraph): string {
  return graph.transaction.currentMilestoneId ?? graph.milestones[graph.milestones.length - 1]!.milestone.id;
}

function logRow(milestoneId: string, actor: PartyRole, message: string, now: Date) {
  return { id: uuidv7(), milestoneId, actor, logMessage: message, isAutomatic: false, createdAt: now, updatedAt: now };
}

/** A change of the transaction row that moves no money: a cancellation request, or its decline. */
function writeRequestChange(
  ctx: TransactionContext,
  a: { request: CancellationRequestJson | null; log: string; event: EventType; reason: string | null },
): TransactionWithMilestonesRecord {
  const { tx, graph, now, role } = ctx;
  const t = graph.transaction;
  const after: TransactionGraph = { ...graph, transaction: { ...t, cancellationRequest: a.request, updatedAt: now } };
  const record = transactionWithMilestonesRecord(after, now);
  const event = eventWrites({
    clientId: ctx.client.id,
    type: a.event,
    transactionId: t.id,
    data: { actor: role, automatic: false, message: a.log, reason: a.reason, transaction: record },
    now,
  });
  ctx.last(
    runAsOneStatement(tx, 'transaction_request', [
      tx.update(transactions).set({ cancellationRequest: a.request, updatedAt: now }).where(eq(transactions.id, t.id)),
      tx.insert(milestoneLogs).values(logRow(logMilestoneId(graph), role, a.log, now)),
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
async function writeEnding(ctx: TransactionContext, a: { ended: TransactionEnding; plan: EndingPlan; reason: string; why: string; event: EventType }): Promise<TransactionWithMilestonesRecord> {
  const { tx, client, graph, now, role } = ctx;
  const t = graph.transaction;
  const buyerWalletId = graph.buyer.organisation.walletId;
  const refunded = graph.milestones.filter(({ milestone }) => a.plan.refunded.includes(milestone.id));
  const balances = refunded.length > 0 ? await lockLedgerAccounts(tx, [buyerWalletId, ...refunded.map(({ escrow }) => escrow.id)]) : new Map<string, number>();
  const refunds: TransferInput[] = refunded
    .map(({ milestone, escrow }) => ({ milestone, escrowBalance: balances.get(escrow.id) ?? 0, escrowId: escrow.id }))
    .filter((r) => r.escrowBalance > 0)
    .map((r) => ({
      clientId: client.id,
      milestoneId: r.milestone.id,
      transfer: refund({ escrowId: r.escrowId, buyerWalletId, escrowBalance: r.escrowBalance }),
      description: `Refund of milestone ${r.milestone.position}: transaction ${a.ended === 'CANCELED' ? 'canceled' : 'terminated'}`,
      now,
    }));
  const refundOf = new Map(refunds.map((r) => [r.milestoneId!, r.transfer.postings.find((p) => p.accountId === buyerWalletId)?.amount ?? 0]));
  const refundedKobo = [...refundOf.values()].reduce((sum, kobo) => sum + kobo, 0);

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
    endedBy: role,
    endReason: a.reason,
    totalAmountRefundedKobo: t.totalAmountRefundedKobo + refundedKobo,
    updatedAt: now,
  };
  const after: TransactionGraph = { ...graph, transaction: transactionAfter, milestones: milestonesAfter };
  const record = transactionWithMilestonesRecord(after, now);
  const verb = a.ended === 'CANCELED' ? 'canceled' : 'terminated';
  const logs = a.plan.canceled.map((id) => {
    const back = refundOf.get(id);
    return logRow(id, role, `Transaction ${verb} by the ${role} (${a.why}): milestone canceled${back ? `; ${formatNaira(back)} returned from escrow to the buyer's wallet` : ''}.`, now);
  });
  const message = `Transaction ${verb} by the ${role}: ${a.plan.canceled.length} unfinished milestone${a.plan.canceled.length === 1 ? '' : 's'} canceled, ${formatNaira(refundedKobo)} returned to the buyer.`;
  const event = eventWrites({ clientId: client.id, type: a.event, transactionId: t.id, data: { actor: role, automatic: false, message, reason: a.reason, transaction: record }, now });
  const writes: Write[] = [
    ...transfersWrites(refunds),
    ...(a.plan.canceled.length > 0 ? [tx.update(milestones).set({ status: 'CANCELED', updatedAt: now }).where(inArray(milestones.id, a.plan.canceled))] : []),
    ...(logs.length > 0 ? [tx.insert(milestoneLogs).values(logs)] : []),
    sql`update transactions set status = ${a.ended}, date_canceled = ${now.toISOString()}::timestamptz, cancellation_request = null, ended_by = ${role},
      end_reason = ${a.reason}, total_amount_refunded_kobo = ${transactionAfter.totalAmountRefundedKobo}::bigint, updated_at = ${now.toISOString()}::timestamptz
      where id = ${t.id}::uuid`,
    ...event.writes,
  ];
  ctx.last(runAsOneStatement(tx, 'end_transaction', writes));
  return record;
}

/** `POST /v1/transactions/{id}/cancel`: at once when nothing is held or the buyer cancels past due; else a request. */
export async function cancelTransaction(db: Db, client: ClientRow, transactionId: string, actor: TransactionActor, reason: string, now: Date): Promise<Outcome> {
  return runTransactionAction(db, {
    client,
    transactionId,
    actor,
    now,
    act: async (ctx) => {
      const decision = decideCancel(endingStateOf(ctx.graph), ctx.role, now);
      if (!decision.ok) throw refused(decision);
      if (decision.kind === 'canceled') {
        const why = decision.why === 'past_due' ? 'a funded milestone was past its due date undelivered' : 'no escrow held money';
        const transaction = await writeEnding(ctx, { ended: 'CANCELED', plan: decision.plan, reason, why, event: 'transaction.canceled' });
        return { message: `Transaction canceled; ${decision.plan.refunded.length > 0 ? 'the escrow went back to the buyer' : 'no money was held'}`, transaction };
      }
      const request: CancellationRequestJson = { requested_by: ctx.role, reason, requested_at: now.toISOString() };
      const transaction = writeRequestChange(ctx, {
        request,
        reason,
        log: `The ${ctx.role} asked to cancel the transaction: ${reason}. Waiting for the ${other(ctx.role)}'s answer.`,
        event: 'transaction.cancellation_requested',
      });
      return { message: `Cancellation requested; waiting for the ${other(ctx.role)} to approve or decline it`, transaction };
    },
  });
}

/** `POST /v1/transactions/{id}/cancel/approve|decline` by the party that did not ask. */
export async function answerCancellation(
  db: Db,
  client: ClientRow,
  transactionId: string,
  actor: TransactionActor,
  answer: 'approve' | 'decline',
  reason: string | undefined,
  now: Date,
): Promise<Outcome> {
  return runTransactionAction(db, {
    client,
    transactionId,
    actor,
    now,
    act: async (ctx) => {
      const state = endingStateOf(ctx.graph);
      const decision = decideCancellationAnswer(state, ctx.role, answer);
      if (!decision.ok) throw refused(decision);
      const asked = state.cancellationRequest!;
      if (decision.kind === 'canceled') {
        const why = `the ${asked.requestedBy} asked, the ${ctx.role} agreed`;
        const transaction = await writeEnding(ctx, { ended: 'CANCELED', plan: decision.plan, reason: asked.reason, why, event: 'transaction.canceled' });
        return { message: 'Cancellation approved; the transaction is canceled and the escrow went back to the buyer', transaction };
      }
      const transaction = writeRequestChange(ctx, {
        request: null,
        reason: reason ?? null,
        log: `The ${ctx.role} declined the ${asked.requestedBy}'s cancellation request${reason ? `: ${reason}` : ''}. The transaction goes on.`,
        event: 'transaction.cancellation_declined',
      });
      return { message: 'Cancellation declined; the transaction goes on', transaction };
    },
  });
}

/** `POST /v1/transactions/{id}/terminate`: either party, once a dispute of the transaction is resolved. */
export async function terminateTransaction(db: Db, client: ClientRow, transactionId: string, actor: TransactionActor, reason: string, now: Date): Promise<Outcome> {
  return runTransactionAction(db, {
    client,
    transactionId,
    actor,
    now,
    act: async (ctx) => {
      const decision = decideTerminate(endingStateOf(ctx.graph));
      if (!decision.ok) throw refused(decision);
      const transaction = await writeEnding(ctx, { ended: 'TERMINATED', plan: decision.plan, reason, why: 'after a resolved dispute', event: 'transaction.terminated' });
      return { message: 'Transaction terminated; the remaining milestones are canceled and their escrow went back to the buyer', transaction };
    },
  });
}
