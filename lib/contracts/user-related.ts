/** A user with the related records a customer page shows, read in one request (issue #60). */
import { z } from 'zod';
import { CheckoutListRecord } from './checkouts';
import { includeParam } from './include';
import { PayoutListRecord } from './payouts';
import * as R from './records';

export const USER_INCLUDES = ['wallet', 'wallet_history', 'bank_accounts', 'payouts', 'checkouts', 'transactions'] as const;
export type UserInclude = (typeof USER_INCLUDES)[number];

/** How many rows each included list carries: its list operation's first page at the default size, newest first. */
export const INCLUDED_ROWS = 20;

export const GetUserQuery = z.object({
  include: includeParam(USER_INCLUDES, 'related records to carry beside the user, each list as the first page of its list operation (20 rows, newest first, with its pagination)'),
});
export type GetUserQuery = z.infer<typeof GetUserQuery>;

const included = (description: string) => ({ description: `${description}; only with include` });

export const UserWithRelatedRecord = R.UserRecord.extend({
  wallet: R.WalletWithOwnerRecord.optional().meta(included('the wallet and its balance, as GET /v1/wallets/{user_id} answers')),
  wallet_history: R.WalletHistoryRecord.optional().meta(included("the wallet's latest entries, as GET /v1/wallets/{user_id}/history answers")),
  bank_accounts: R.BankAccountListRecord.optional().meta(included('the saved bank accounts, as GET /v1/wallets/banks/list?user_id answers')),
  payouts: PayoutListRecord.optional().meta(included('the payouts, as GET /v1/payouts?user_id answers')),
  checkouts: CheckoutListRecord.optional().meta(included('the card payments, as GET /v1/checkouts?user_id answers')),
  transactions: R.TransactionListRecord.optional().meta(included('the transactions the user is the buyer or seller of, as GET /v1/transactions?user_id answers')),
}).strict();
export type UserWithRelatedRecord = z.infer<typeof UserWithRelatedRecord>;
