'use server';

import type { ActionResult } from '@/lib/contracts/dashboard';
import { ResendEmailInput } from '@/lib/contracts/dashboard-disputes';
import type { EmailRecord } from '@/lib/contracts/emails';
import { fromApi, guarded } from '@/lib/server/dashboard/action';
import { auditStaffAction } from '@/lib/server/dashboard/audit';
import { escrowFor } from '@/lib/server/escrow-client';

/** Sends a failed, unknown or kept email again: the admin's explicit choice; the API answers 404 for another client's email. */
export const resendEmail = guarded(
  { input: ResendEmailInput, role: 'admin', refused: 'Only an admin of the marketplace reads and resends its emails.' },
  async (values, { actor }): Promise<ActionResult<EmailRecord>> => {
    const result = await escrowFor(actor).call('POST /emails/:id/resend', { param: { id: values.email_id }, idempotencyKey: values.idempotency_key });
    // The recipient and subject only: an invitation's body holds its one-time link.
    if (result.ok) await auditStaffAction(actor, 'email_resent', { target: values.email_id, detail: { to: result.data.to.email, subject: result.data.subject } });
    return fromApi(result, (email) => email);
  },
);
