'use server';

import { CreateTransactionBody } from '@/lib/contracts/transactions';
import { CreateTransactionInput, dueDayToIso, type ActionResult } from '@/lib/contracts/dashboard';
import { escrowFor } from '@/lib/server/escrow-client';
import { fromApi, guarded, notAllowed } from '@/lib/server/dashboard/action';
import { FORM_WORDS } from '@/lib/server/dashboard/form-words';
import { auditStaffAction } from '@/lib/server/dashboard/audit';

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
