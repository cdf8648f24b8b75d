'use server';

import { CreateTransactionBody } from '@/lib/contracts/transactions';
import { AnswerCancellationInput, CreateTransactionInput, EndTransactionInput, RateInput, dueDayToIso, type ActionResult } from '@/lib/contracts/dashboard';
import { escrowFor } from '@/lib/server/escrow-client';
import { fromApi, guarded } from '@/lib/server/dashboard/action';
import { FORM_WORDS } from '@/lib/server/dashboard/form-words';
import { auditStaffAction } from '@/lib/server/dashboard/audit';
import { transactionBy } from '@/lib/server/dashboard/ownership';

export const createTransaction = guarded(
  { input: CreateTransactionInput, role: 'admin', refused: 'Only an admin of the marketplace can create transactions.', words: FORM_WORDS.createTransaction },
  async ({ idempotency_key, ...form }, { actor }): Promise<ActionResult<{ transaction_id: string }>> => {
    // The form's calendar days become the API's date-times; then the API's own schema checks the body.
    const body = CreateTransactionBody.safeParse({ ...form, milestones: form.milestones.map((m) => ({ ...m, due_date: dueDayToIso(m.due_date) })) });
    if (!body.success) return { ok: false, message: 'Check the form', errors: body.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })) };
    const result = await escrowFor(actor).call('POST /transactions', { json: body.data, idempotencyKey: idempotency_key });
    if (result.ok) await auditStaffAction(actor, 'transaction_created', { target: result.data.id, detail: { title: result.data.title } });
    return fromApi(result, (t) => ({ transaction_id: t.id }));
  },
);

// The party acting on a transaction is the signed-in person's place on it (guarded's `owns`), never the form's.

/** The buyer or the seller asks to cancel, or cancels at once where the rules allow (docs/decisions.md §13). */
export const cancelTransaction = guarded(
  { input: EndTransactionInput, owns: transactionBy(['buyer', 'seller'], 'Only the buyer or the seller cancels a transaction.') },
  async ({ transaction_id, reason, idempotency_key }, { owned }): Promise<ActionResult> => {
    const party = { [`${owned.viewer}_id`]: owned.record[owned.viewer].user_id };
    return fromApi(await owned.api.call('POST /transactions/:id/cancel', { param: { id: transaction_id }, json: { ...party, reason }, idempotencyKey: idempotency_key }));
  },
);

/** The party that did not ask approves or declines a cancellation request. */
export const answerCancellation = guarded(
  { input: AnswerCancellationInput, owns: transactionBy(['buyer', 'seller'], 'Only the buyer or the seller answers a cancellation request.') },
  async ({ transaction_id, answer, idempotency_key }, { owned }): Promise<ActionResult> => {
    const party = { [`${owned.viewer}_id`]: owned.record[owned.viewer].user_id };
    const operation = answer === 'approve' ? 'POST /transactions/:id/cancel/approve' : 'POST /transactions/:id/cancel/decline';
    return fromApi(await owned.api.call(operation, { param: { id: transaction_id }, json: party, idempotencyKey: idempotency_key }));
  },
);

/** Either party ends the rest of the transaction after a resolved dispute. */
export const terminateTransaction = guarded(
  { input: EndTransactionInput, owns: transactionBy(['buyer', 'seller'], 'Only the buyer or the seller ends a transaction.') },
  async ({ transaction_id, reason, idempotency_key }, { owned }): Promise<ActionResult> => {
    const party = { [`${owned.viewer}_id`]: owned.record[owned.viewer].user_id };
    return fromApi(await owned.api.call('POST /transactions/:id/terminate', { param: { id: transaction_id }, json: { ...party, reason }, idempotencyKey: idempotency_key }));
  },
);

/** A party rates the other once the transaction is completed. */
export const rateTransaction = guarded(
  { input: RateInput, owns: transactionBy(['buyer', 'seller'], 'Only the buyer or the seller rates a transaction.') },
  async ({ transaction_id, score, comment, idempotency_key }, { owned }): Promise<ActionResult> => {
    const party = { [`${owned.viewer}_id`]: owned.record[owned.viewer].user_id };
    return fromApi(await owned.api.call('POST /transactions/:id/ratings', { param: { id: transaction_id }, json: { ...party, score, ...(comment ? { comment } : {}) }, idempotencyKey: idempotency_key }));
  },
);
