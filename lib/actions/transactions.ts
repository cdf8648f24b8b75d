'use server';

import { CreateTransactionBody } from '@/lib/contracts/transactions';
import { AnswerCancellationInput, CreateTransactionInput, EndTransactionInput, RateInput, dueDayToIso, type ActionResult } from '@/lib/contracts/dashboard';
import { escrowFor } from '@/lib/server/escrow-client';
import { fromApi, guarded, notAllowed, notYours } from '@/lib/server/dashboard/action';
import { FORM_WORDS } from '@/lib/server/dashboard/form-words';
import { auditStaffAction } from '@/lib/server/dashboard/audit';
import { transactionFor } from '@/lib/server/dashboard/ownership';

export async function createTransaction(input: unknown): Promise<ActionResult<{ transaction_id: string }>> {
  return guarded(CreateTransactionInput, input, async ({ idempotency_key, ...form }, actor) => {
    if (actor.kind !== 'admin') return notAllowed('Only an admin of the marketplace can create transactions.');
    // The form's calendar days become the API's date-times; then the API's own schema checks the body.
    const body = CreateTransactionBody.safeParse({ ...form, milestones: form.milestones.map((m) => ({ ...m, due_date: dueDayToIso(m.due_date) })) });
    if (!body.success) return { ok: false, message: 'Check the form', errors: body.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })) };
    const result = await escrowFor(actor).transactions.create(body.data, idempotency_key);
    if (result.ok) await auditStaffAction(actor, 'transaction_created', { target: result.data.id, detail: { title: result.data.title } });
    return fromApi(result, (t) => ({ transaction_id: t.id }));
  }, { words: FORM_WORDS.createTransaction });
}

/** The buyer or the seller asks to cancel, or cancels at once where the rules allow (docs/decisions.md §13). */
export async function cancelTransaction(input: unknown): Promise<ActionResult> {
  return guarded(EndTransactionInput, input, async ({ transaction_id, reason, idempotency_key }, actor) => {
    const owned = await transactionFor(actor, transaction_id);
    if (owned.kind !== 'ok') return notYours('Transaction');
    if (owned.viewer === 'admin') return notAllowed('Only the buyer or the seller cancels a transaction.');
    const party = { [`${owned.viewer}_id`]: owned.record[owned.viewer].user_id };
    return fromApi(await owned.api.transactions.cancel(transaction_id, { ...party, reason }, idempotency_key));
  });
}

/** The party that did not ask approves or declines a cancellation request. */
export async function answerCancellation(input: unknown): Promise<ActionResult> {
  return guarded(AnswerCancellationInput, input, async ({ transaction_id, answer, idempotency_key }, actor) => {
    const owned = await transactionFor(actor, transaction_id);
    if (owned.kind !== 'ok') return notYours('Transaction');
    if (owned.viewer === 'admin') return notAllowed('Only the buyer or the seller answers a cancellation request.');
    const party = { [`${owned.viewer}_id`]: owned.record[owned.viewer].user_id };
    const send = answer === 'approve' ? owned.api.transactions.approveCancellation : owned.api.transactions.declineCancellation;
    return fromApi(await send(transaction_id, party, idempotency_key));
  });
}

/** Either party ends the rest of the transaction after a resolved dispute. */
export async function terminateTransaction(input: unknown): Promise<ActionResult> {
  return guarded(EndTransactionInput, input, async ({ transaction_id, reason, idempotency_key }, actor) => {
    const owned = await transactionFor(actor, transaction_id);
    if (owned.kind !== 'ok') return notYours('Transaction');
    if (owned.viewer === 'admin') return notAllowed('Only the buyer or the seller ends a transaction.');
    const party = { [`${owned.viewer}_id`]: owned.record[owned.viewer].user_id };
    return fromApi(await owned.api.transactions.terminate(transaction_id, { ...party, reason }, idempotency_key));
  });
}

/** A party rates the other once the transaction is completed. */
export async function rateTransaction(input: unknown): Promise<ActionResult> {
  return guarded(RateInput, input, async ({ transaction_id, score, comment, idempotency_key }, actor) => {
    const owned = await transactionFor(actor, transaction_id);
    if (owned.kind !== 'ok') return notYours('Transaction');
    if (owned.viewer === 'admin') return notAllowed('Only the buyer or the seller rates a transaction.');
    const party = { [`${owned.viewer}_id`]: owned.record[owned.viewer].user_id };
    return fromApi(await owned.api.transactions.rate(transaction_id, { ...party, score, ...(comment ? { comment } : {}) }, idempotency_key));
  });
}
