/**
 * Form inputs and page data of the dashboard's money-out screens (issue #24, docs/decisions.md §11): a customer's
 * withdrawal and own bank account, the admin's payouts list, its sandbox helpers and the auto_payout switch.
 * As in dashboard.ts: the API's request schemas without the acting user's id (the server takes it from the
 * session), plus the record id and the form's Idempotency-Key.
 */
import { z } from 'zod';
import { AmountFilterParams, Id, ListFilterParams, type Pagination } from './common';
import { IdempotencyKey, SaveBankAccountInput, type WalletView } from './dashboard';
import type * as R from './records';
import { CreatePayoutBody, PayoutHelperBody, PayoutStatus, UpdateClientSettingsBody, type ClientSettingsRecord, type PayoutRecord } from './payouts';

const intent = { idempotency_key: IdempotencyKey };

/** A customer's withdrawal: the account is one of its own saved accounts, chosen in the form. */
export const WithdrawInput = CreatePayoutBody.omit({ user_id: true, bank_account_id: true, metadata: true }).extend({ bank_account_id: Id, ...intent });
/** A customer saves an account of its own: the user is the signed-in customer. */
export const SaveMyBankAccountInput = SaveBankAccountInput.omit({ user_id: true });
export const RemoveBankAccountInput = z.object({ bank_account_id: Id });
/** The sandbox helpers from the payouts list: fail one on its way, or reverse a paid one. */
export const PayoutHelperInput = PayoutHelperBody.extend({ payout_id: Id, outcome: z.enum(['fail', 'reverse']), ...intent });
export const UpdateSettingsInput = UpdateClientSettingsBody.extend(intent);

/** The payouts list's filters, as the data route reads them from its URL. */
export const PayoutFilters = z.object({
  page: z.coerce.number().int().min(1).default(1),
  status: PayoutStatus.optional(),
  user_id: Id.optional(),
  ...ListFilterParams,
  ...AmountFilterParams,
});

export type WithdrawInput = z.infer<typeof WithdrawInput>;
export type SaveMyBankAccountInput = z.infer<typeof SaveMyBankAccountInput>;
export type PayoutHelperInput = z.infer<typeof PayoutHelperInput>;
export type PayoutFilters = z.infer<typeof PayoutFilters>;

// Response shapes the pages render (types only).
export type Payout = PayoutRecord;
export type SavedBankAccount = R.BankAccountRecord;
export type ClientSettings = z.infer<typeof ClientSettingsRecord>;

/** One row of a payouts list; `customer` (the user's name) on the admin's list only. */
export type PayoutRow = Payout & { customer?: string };
export type PayoutsView = { payouts: PayoutRow[]; pagination: Pagination };
/** A customer's own saved accounts. */
export type MyBankAccountsView = { bank_accounts: SavedBankAccount[] };
/** The name a saved account's bank name is compared with. */
export type PersonName = { firstName: string; lastName: string };
/** Everything a customer's Wallet page opens with. */
export type CustomerWalletView = { wallet: WalletView; payouts: PayoutsView; accounts: MyBankAccountsView };
