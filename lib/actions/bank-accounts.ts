'use server';

import { LookupAccountInput, SaveBankAccountInput, type ActionResult } from '@/lib/contracts/dashboard';
import { RemoveBankAccountInput } from '@/lib/contracts/dashboard-payouts';
import { escrowFor } from '@/lib/server/escrow-client';
import { fromApi, guarded } from '@/lib/server/dashboard/action';
import { nameCheck } from '@/lib/server/dashboard/payouts';
import { auditStaffAction } from '@/lib/server/dashboard/audit';

const admins = { role: 'admin', refused: 'Only an admin of the marketplace can do this.' } as const;

export const lookupAccountName = guarded(
  { input: LookupAccountInput, ...admins },
  async (body, { actor }): Promise<ActionResult<{ account_name: string; bank_name: string }>> => {
    return fromApi(await escrowFor(actor).call('POST /wallets/banks/validate', { json: body }), (r) => ({ account_name: r.account_name, bank_name: r.bank_name }));
  },
);

export const saveBankAccount = guarded(
  { input: SaveBankAccountInput, ...admins },
  async ({ idempotency_key, accept_name_mismatch, ...body }, { actor }): Promise<ActionResult<{ account_name: string }>> => {
    const refused = await nameCheck(actor, { ...body, accept_name_mismatch });
    if (refused) return refused;
    const result = await escrowFor(actor).call('POST /wallets/banks/disbursement', { json: body, idempotencyKey: idempotency_key });
    if (result.ok) {
      const account = result.data;
      const detail = { user_id: body.user_id, bank_name: account.bank_name, account_last4: account.account_number.slice(-4), account_name: account.account_name, name_mismatch_accepted: accept_name_mismatch === true };
      await auditStaffAction(actor, 'bank_account_saved', { target: account.id, detail });
    }
    return fromApi(result, (account) => ({ account_name: account.account_name }));
  },
);

/** The API keeps an account with a payout on its way (409): said here as what to wait for. */
export const removeBankAccount = guarded(
  { input: RemoveBankAccountInput, ...admins },
  async ({ bank_account_id }, { actor }): Promise<ActionResult> => {
    // No Idempotency-Key: removing twice finds nothing the second time (404).
    const result = await escrowFor(actor).call('DELETE /wallets/banks/disbursement/:id', { param: { id: bank_account_id } });
    if (!result.ok && result.code === 'INVALID_STATE') {
      return { ok: false, message: 'A payout to this account is still on its way. Remove the account once that payout is paid or has failed.' };
    }
    if (!result.ok && result.status === 404) return { ok: false, message: 'This account was already removed.' };
    if (result.ok) await auditStaffAction(actor, 'bank_account_removed', { target: bank_account_id });
    return fromApi(result);
  },
);
