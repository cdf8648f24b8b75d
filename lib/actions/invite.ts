'use server';

import { AcceptInviteInput, type ActionResult } from '@/lib/contracts/dashboard';
import { getDb } from '@/lib/server/db/client';
import { acceptInvite } from '@/lib/server/dashboard/accounts';

/** The one action without a session: the one-time token is the credential. */
export async function setPasswordFromInvite(input: unknown): Promise<ActionResult<{ email: string }>> {
  const parsed = AcceptInviteInput.safeParse(input);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => ({ field: i.path.join('.') || '(form)', message: i.message }));
    return { ok: false, message: errors[0]?.message ?? 'Check the form.', errors };
  }
  const account = await acceptInvite(await getDb(), parsed.data.token, parsed.data.password, new Date());
  if (!account) return { ok: false, message: 'This invite link has expired or was already used. Ask your marketplace for a new one.' };
  return { ok: true, message: 'Password set.', data: { email: account.email } };
}
