'use client';

import Link from 'next/link';
import type { BankAccountList, TransactionList, User, WalletView } from '@/lib/contracts/dashboard';
import type { PayoutsView } from '@/lib/contracts/dashboard-payouts';
import type { CheckoutsView } from '@/lib/contracts/dashboard-statements';
import { naira } from '../escrow/format';
import { PayoutsList } from '../escrow/payouts-list';
import { NameDiffers } from '../escrow/saved-accounts';
import { StatusBadge } from '../escrow/status-badge';
import { WalletPanel } from '../escrow/wallet-panel';
import { Badge } from '../ui/badge';
import { Card, CardHeader } from '../ui/card';
import { invalidate } from '../live/live-query';
import { ErrorState } from '../ui/states';
import { lazyForm, lazyPart } from '../ui/lazy-form';
import { CustomerCheckouts } from './customer-checkouts';
import { IntegrationDetails } from '../escrow/integration-details';

const FundWalletForm = lazyForm(() => import('./fund-wallet-form').then((m) => m.FundWalletForm));
// The admin's buttons and their dialogs load right after hydration (issue #6).
const CustomerActions = lazyPart(() => import('./customer-actions').then((m) => m.CustomerActions));
const ENDED: ReadonlySet<string> = new Set(['COMPLETED', 'CANCELED', 'TERMINATED']);

export function CustomerDetail({
  user,
  access,
  wallet,
  payouts,
  checkouts,
  bankAccounts,
  transactions,
}: {
  user: User;
  access: 'active' | 'invited' | 'none';
  wallet: WalletView;
  /** null when the payouts could not be read: the rest of the page still shows. */
  payouts: PayoutsView | null;
  /** null when the card payments could not be read. */
  checkouts: CheckoutsView | null;
  bankAccounts: BankAccountList['bank_accounts'];
  transactions: TransactionList['transactions'];
}) {
  const openTransactions = transactions.filter((t) => !ENDED.has(t.status)).length;
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
      <div className="space-y-6">
        <WalletPanel initial={wallet} userId={user.id} />
        {payouts ? <PayoutsList initial={payouts} userId={user.id} title="Payouts" /> : <ErrorState message="This customer’s payouts could not be loaded." />}
        {checkouts ? <CustomerCheckouts view={checkouts} /> : <ErrorState message="This customer’s card payments could not be loaded." />}
      </div>
      <div className="space-y-6">
        <Card>
          <CardHeader title="Customer" level={2} />
          <dl className="space-y-2 text-sm">
            <div>
              <dt className="text-slate-500">Status</dt>
              <dd>
                {user.is_active ? (
                  <Badge tone="green">Active</Badge>
                ) : (
                  <>
                    <Badge tone="red">Deactivated</Badge>
                    <p className="mt-1 text-slate-600">No new transaction may name {user.first_name}, and {user.first_name} cannot sign in.</p>
                  </>
                )}
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">Email</dt>
              <dd>{user.email}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Phone</dt>
              <dd>{user.phone ?? '—'}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Dashboard access</dt>
              <dd>
                {user.is_active ? (
                  <Badge tone={access === 'active' ? 'green' : access === 'invited' ? 'amber' : 'grey'}>
                    {access === 'active' ? 'Signs in' : access === 'invited' ? 'Invited' : 'No access'}
                  </Badge>
                ) : (
                  <Badge tone="grey">{access === 'none' ? 'No access' : 'Blocked while deactivated'}</Badge>
                )}
              </dd>
            </div>
          </dl>
          <CustomerActions user={user} access={access} openTransactions={openTransactions} />
        </Card>
        <IntegrationDetails metadata={user.metadata} />
        <Card>
          <CardHeader title="Sandbox funding" level={2} />
          <FundWalletForm userId={user.id} name={user.first_name} onDone={() => void invalidate(['wallet'])} />
        </Card>
        <Card>
          <CardHeader
            title="Bank accounts"
            level={2}
            actions={
              <Link href={`/admin/bank-accounts?user_id=${user.id}`} className="text-sm text-emerald-800 underline">
                Add
              </Link>
            }
          />
          {bankAccounts.length === 0 ? (
            <p className="text-sm text-slate-600">No disbursement account saved.</p>
          ) : (
            <ul className="space-y-2 text-sm">
              {bankAccounts.map((a) => (
                <li key={a.id}>
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{a.account_name}</span>
                    {a.name_matches === false ? <NameDiffers /> : null}
                  </p>
                  <p className="text-slate-600">
                    {a.bank_name} · {a.account_number}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card>
          <CardHeader title="Transactions" level={2} />
          {transactions.length === 0 ? (
            <p className="text-sm text-slate-600">None yet.</p>
          ) : (
            <ul className="space-y-2 text-sm">
              {transactions.map((t) => (
                <li key={t.id} className="flex items-center justify-between gap-2">
                  <Link href={`/transactions/${t.id}`} className="text-emerald-800 underline-offset-2 hover:underline">
                    {t.title}
                  </Link>
                  <span className="flex items-center gap-2">
                    <StatusBadge kind="transaction" status={t.status} />
                    <span className="tabular-nums">{naira(t.transaction_amount)}</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </div>
  );
}
