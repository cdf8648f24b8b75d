'use server';

import { LookupAccountInput, type ActionResult } from '@/lib/contracts/dashboard';
import { SaveMyBankAccountInput, WithdrawInput } from '@/lib/contracts/dashboard-payouts';
import { escrowFor } from '@/lib/server/escrow-client';
import { fromApi, guarded, notAllowed } from '@/lib/server/dashboard/action';
import { nameCheck, payoutResult } from '@/lib/server/dashboard/payouts';

// A customer acts only on its own wallet and accounts: the user id comes from the session, never the form.
const customersOnly = () => notAllowed('Only a customer withdraws from its own wallet here.');

export async function lookupMyAccountName(input: unknown): Promise<ActionResult<{ account_name: string; bank_name: string }>> {
  return guarded(LookupAccountInput, input, async (body, actor) => {
    if (actor.kind !== 'customer') return customersOnly();
    return fromApi(await escrowFor(actor).banks.validate(body), (r) => ({ account_name: r.account_name, bank_name: r.bank_name }));
  });
}

export async function saveMyBankAccount(input: unknown): Promise<ActionResult<{ account_name: string }>> {
  return guarded(SaveMyBankAccountInput, input, async ({ idempotency_key, accept_name_mismatch, ...body }, actor) => {
    if (actor.kind !== 'customer') return customersOnly();
    const save = { ...body, user_id: actor.escrowUserId };
    const refused = await nameCheck(actor, { ...save, accept_name_mismatch });
    if (refused) return refused;
    return fromApi(await escrowFor(actor).banks.save(save, idempotency_key), (account) => ({ account_name: account.account_name }));
  });
}

/** The API checks the account is this user's (another's is 404) and that the wallet holds the amount. */
export async function withdraw(input: unknown): Promise<ActionResult<{ payout_id: string; status: string }>> {
  return guarded(WithdrawInput, input, async ({ idempotency_key, amount, bank_account_id }, actor) => {
    if (actor.kind !== 'customer') return customersOnly();
    const result = await escrowFor(actor).payouts.create({ user_id: actor.escrowUserId, amount, bank_account_id }, idempotency_key);
    return payoutResult(result, (payout) => ({ payout_id: payout.id, status: payout.status }));
  });
}
