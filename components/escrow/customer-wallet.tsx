'use client';

import type { Bank } from '@/lib/contracts/dashboard';
import type { CustomerWalletView, MyBankAccountsView, PersonName } from '@/lib/contracts/dashboard-payouts';
import { Card, CardHeader } from '../ui/card';
import { fetchJson } from '../ui/fetch-json';
import { lazyForm } from '../ui/lazy-form';
import { invalidate, useLiveQuery } from '../live/live-query';
import { ErrorState } from '../ui/states';
import { PayoutsList } from './payouts-list';
import { SavedAccountsList } from './saved-accounts';
import { WalletPanel } from './wallet-panel';

const CardTopUpForm = lazyForm(() => import('./card-top-up-form').then((m) => m.CardTopUpForm));
const WithdrawForm = lazyForm(() => import('./withdraw-form').then((m) => m.WithdrawForm));
const MyBankAccountForm = lazyForm(() => import('./my-bank-account-form').then((m) => m.MyBankAccountForm));

/** The customer's Wallet page: balance, money in by card, money out to its own saved accounts, those accounts, and the history. */
export function CustomerWallet({ initial, banks, me }: { initial: CustomerWalletView; banks: Bank[]; me: PersonName }) {
  const accounts = useLiveQuery({
    queryKey: ['bank-accounts', 'me'],
    queryFn: () => fetchJson<MyBankAccountsView>('/data/bank-accounts'),
    initialData: initial.accounts,
  });
  const saved = accounts.data.bank_accounts;
  const afterWithdrawal = () => {
    void invalidate(['wallet']);
    void invalidate(['payouts']);
  };
  return (
    <WalletPanel initial={initial.wallet}>
      {(wallet) => (
        <>
          <Card>
            <CardHeader title="Add money by card" description="Pay by card or bank app on the payment page; the money is in your wallet as soon as the payment is confirmed." />
            <CardTopUpForm />
          </Card>
          <div className="grid gap-6 lg:grid-cols-2">
            <Card>
              <CardHeader title="Withdraw" description="Send money from your wallet to one of your bank accounts." />
              {saved.length === 0 ? (
                <p className="text-sm text-slate-600">Save a bank account first: withdrawals are paid to a saved account.</p>
              ) : (
                <WithdrawForm accounts={saved} balance={wallet.balance} onDone={afterWithdrawal} />
              )}
            </Card>
            <Card>
              <CardHeader title="Your bank accounts" description="Where your withdrawals can go." />
              {accounts.isError ? <ErrorState message={accounts.error.message} retry={() => void accounts.refetch()} /> : <SavedAccountsList accounts={saved} />}
              <details className="mt-4 rounded-md border p-3" open={saved.length === 0}>
                <summary className="cursor-pointer text-sm font-medium text-emerald-800">Add a bank account</summary>
                <div className="mt-3">
                  <MyBankAccountForm banks={banks} me={me} onSaved={() => void invalidate(['bank-accounts'])} />
                </div>
              </details>
            </Card>
          </div>
          <PayoutsList initial={initial.payouts} />
        </>
      )}
    </WalletPanel>
  );
}
