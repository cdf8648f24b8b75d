'use server';

import type { ActionResult } from '@/lib/contracts/dashboard';
import { ResendEmailInput } from '@/lib/contracts/dashboard-disputes';
import type { EmailRecord } from '@/lib/contracts/emails';
import { fromApi, guarded, notAllowed } from '@/lib/server/dashboard/action';
import { escrowFor } from '@/lib/server/escrow-client';

/** Sends a failed, unknown or kept email again: the admin's explicit choice; the API answers 404 for another client's email. */
export async function resendEmail(input: unknown): Promise<ActionResult<EmailRecord>> {
  return guarded(ResendEmailInput, input, async (values, actor) => {
    if (actor.kind !== 'admin') return notAllowed('Only an admin of the marketplace reads and resends its emails.');
    return fromApi(await escrowFor(actor).emails.resend(values.email_id, values.idempotency_key), (email) => email);
  });
}
