'use server';

import { LookupAccountInput, SaveBankAccountInput, type ActionResult } from '@/lib/contracts/dashboard';
import { escrow } from '@/lib/server/escrow-client';
import { fromApi, guarded, notAllowed } from '@/lib/server/dashboard/action';

const adminsOnly = () => notAllowed('Only an admin of the marketplace can do this.');

export async function lookupAccountName(input: unknown): Promise<ActionResult<{ account_name: string; bank_name: string }>> {
  return guarded(LookupAccountInput, input, async (body, actor) => {
    if (actor.kind !== 'admin') return adminsOnly();
    return fromApi(await escrow.banks.validate(body), (r) => ({ account_name: r.account_name, bank_name: r.bank_name }));
  });
}

export async function saveBankAccount(input: unknown): Promise<ActionResult<{ account_name: string }>> {
  return guarded(SaveBankAccountInput, input, async ({ idempotency_key, ...body }, actor) => {
    if (actor.kind !== 'admin') return adminsOnly();
    return fromApi(await escrow.banks.save(body, idempotency_key), (account) => ({ account_name: account.account_name }));
  });
}
