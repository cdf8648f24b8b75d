import 'server-only';
import { ListBankAccountsQuery } from '@/lib/contracts/banks';
import { ListCheckoutsQuery } from '@/lib/contracts/checkouts';
import { includes } from '@/lib/contracts/include';
import { ListPayoutsQuery } from '@/lib/contracts/payouts';
import { ListTransactionsQuery } from '@/lib/contracts/transactions';
import type { UserInclude, UserWithRelatedRecord } from '@/lib/contracts/user-related';
import { WalletHistoryQuery } from '@/lib/contracts/wallets';
import { listCheckouts } from '../checkouts/checkouts';
import type { Db } from '../db/client';
import type { ClientRow } from '../db/schema';
import { listPayouts } from '../payouts/payouts';
import { listBankAccounts } from './bank-accounts';
import { listTransactions } from './transactions';
import { getUser } from './users';
import { getWallet, walletHistory } from './wallets';

/**
 * One user and the related records `include` names, each read as its own list operation reads its first page, so
 * a customer's page costs one request and a fixed number of queries whatever the customer has.
 */
export async function getUserWithRelated(db: Db, client: ClientRow, userOrPartyId: string, include: readonly UserInclude[] | undefined, now: Date): Promise<UserWithRelatedRecord> {
  const user = await getUser(db, client, userOrPartyId);
  const of = { user_id: user.id };
  const when = <T>(name: UserInclude, read: () => Promise<T>) => (includes(include, name) ? read() : Promise.resolve(undefined));
  const [wallet, history, bankAccounts, payouts, checkouts, transactions] = await Promise.all([
    when('wallet', () => getWallet(db, client, user.id)),
    when('wallet_history', () => walletHistory(db, client, user.id, WalletHistoryQuery.parse({}))),
    when('bank_accounts', () => listBankAccounts(db, client, ListBankAccountsQuery.parse(of))),
    when('payouts', () => listPayouts(db, client, ListPayoutsQuery.parse(of))),
    when('checkouts', () => listCheckouts(db, client, ListCheckoutsQuery.parse(of), now)),
    when('transactions', () => listTransactions(db, client, ListTransactionsQuery.parse(of), now)),
  ]);
  return {
    ...user,
    ...(wallet ? { wallet } : {}),
    ...(history ? { wallet_history: history } : {}),
    ...(bankAccounts ? { bank_accounts: bankAccounts } : {}),
    ...(payouts ? { payouts } : {}),
    ...(checkouts ? { checkouts } : {}),
    ...(transactions ? { transactions } : {}),
  };
}
