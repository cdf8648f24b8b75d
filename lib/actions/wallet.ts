'use server';

import { LookupAccountInput, type ActionResult } from '@/lib/contracts/dashboard';
import { SaveMyBankAccountInput, WithdrawInput } from '@/lib/contracts/dashboard-payouts';
import { CardTopUpInput } from '@/lib/contracts/dashboard-statements';
import { escrowFor } from '@/lib/server/escrow-client';
import { fromApi, guarded } from '@/lib/server/dashboard/action';
import { nameCheck, payoutResult } from '@/lib/server/dashboard/payouts';
import { cardPaymentResult } from '@/lib/server/dashboard/checkout-outcome';
import { requestOrigin } from '@/lib/server/dashboard/request-origin';

// A customer acts only on its own wallet and accounts: the user id comes from the session, never the form.
const customers = { role: 'customer', refused: 'Only a customer withdraws from its own wallet here.' } as const;

export const lookupMyAccountName = guarded(
  { input: LookupAccountInput, ...customers },
  async (body, { actor }): Promise<ActionResult<{ account_name: string; bank_name: string }>> => {
    return fromApi(await escrowFor(actor).call('POST /wallets/banks/validate', { json: body }), (r) => ({ account_name: r.account_name, bank_name: r.bank_name }));
  },
);

export const saveMyBankAccount = guarded(
  { input: SaveMyBankAccountInput, ...customers },
  async ({ idempotency_key, accept_name_mismatch, ...body }, { actor }): Promise<ActionResult<{ account_name: string }>> => {
    const save = { ...body, user_id: actor.escrowUserId };
    const refused = await nameCheck(actor, { ...save, accept_name_mismatch });
    if (refused) return refused;
    return fromApi(await escrowFor(actor).call('POST /wallets/banks/disbursement', { json: save, idempotencyKey: idempotency_key }), (account) => ({ account_name: account.account_name }));
  },
);

/** The API checks the account is this user's (another's is 404) and that the wallet holds the amount. */
export const withdraw = guarded(
  { input: WithdrawInput, ...customers },
  async ({ idempotency_key, amount, bank_account_id }, { actor }): Promise<ActionResult<{ payout_id: string; status: string }>> => {
    const result = await escrowFor(actor).call('POST /payouts', { json: { user_id: actor.escrowUserId, amount, bank_account_id }, idempotencyKey: idempotency_key });
    return payoutResult(result, (payout) => ({ payout_id: payout.id, status: payout.status }));
  },
);

/**
 * A card payment into the customer's own wallet (docs/decisions.md §16): a wallet checkout whose payment page sends the
 * browser back to the Wallet page at the origin it came from (the API allows plain http only to this machine, with test keys).
 */
export const addMoneyByCard = guarded(
  { input: CardTopUpInput, role: 'customer', refused: 'Only a customer adds money to its own wallet here.' },
  async ({ amount, idempotency_key }, { actor }): Promise<ActionResult<{ authorization_url: string }>> => {
    const origin = await requestOrigin();
    if (!origin) return { ok: false, message: 'The page you came from could not be told: reload the wallet and try again.' };
    const json = { buyer_id: actor.escrowUserId, amount, callback_url: `${origin}/wallet` };
    const result = await escrowFor(actor).call('POST /checkouts', { json, idempotencyKey: idempotency_key });
    if (!result.ok && result.errors?.some((e) => e.field === 'callback_url')) {
      return { ok: false, message: 'Card payments need this dashboard to be served over https: the payment page cannot send you back here. Nothing was charged.' };
    }
    return cardPaymentResult(result, (checkout) => ({ authorization_url: checkout.authorization_url }));
  },
);
