import 'server-only';
import type { TransactionWithMilestonesRecord } from '@/lib/contracts/records';
import { addBusinessDays } from '@/lib/escrow/business-days';
import { CANCELLATION_RESPONSE_BUSINESS_DAYS } from '@/lib/escrow/deadlines';
import { decideCancel, decideCancellationAnswer, decideTerminate, type Refusal } from '@/lib/escrow/ending';
import type { PartyRole } from '@/lib/escrow/milestone-machine';
import { holidays } from '../calendar';
import type { Db } from '../db/client';
import type { CancellationRequestJson, ClientRow } from '../db/schema';
import { AppError } from '../app-error';
import { endingStateOf } from '../records/transaction-graph/domain';
import { runTransactionAction, type TransactionActor, type TransactionContext } from '../engine/transaction-action';
import { writeEnding, writeRequestChange, type Writer } from '../engine/transaction-ending-writes';

type Outcome = { message: string; transaction: TransactionWithMilestonesRecord };

const other = (role: PartyRole): PartyRole => (role === 'buyer' ? 'seller' : 'buyer');

function refused(refusal: Refusal): AppError {
  return new AppError(refusal.code, refusal.message);
}

const byParty = (ctx: TransactionContext): Writer => ({ ...ctx, actor: ctx.role, automatic: false, endedBy: ctx.role });

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
        const transaction = await writeEnding(byParty(ctx), { ended: 'CANCELED', plan: decision.plan, reason, why, event: 'transaction.canceled' });
        return { message: `Transaction canceled; ${decision.plan.refunded.length > 0 ? 'the escrow went back to the buyer' : 'no money was held'}`, transaction };
      }
      const request: CancellationRequestJson = { requested_by: ctx.role, reason, requested_at: now.toISOString() };
      const transaction = writeRequestChange(byParty(ctx), {
        request,
        dueAt: addBusinessDays(now, CANCELLATION_RESPONSE_BUSINESS_DAYS, holidays()),
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
        const transaction = await writeEnding(byParty(ctx), { ended: 'CANCELED', plan: decision.plan, reason: asked.reason, why, event: 'transaction.canceled' });
        return { message: 'Cancellation approved; the transaction is canceled and the escrow went back to the buyer', transaction };
      }
      const transaction = writeRequestChange(byParty(ctx), {
        request: null,
        dueAt: null,
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
      const transaction = await writeEnding(byParty(ctx), { ended: 'TERMINATED', plan: decision.plan, reason, why: 'after a resolved dispute', event: 'transaction.terminated' });
      return { message: 'Transaction terminated; the remaining milestones are canceled and their escrow went back to the buyer', transaction };
    },
  });
}

