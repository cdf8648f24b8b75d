'use client';

import { useState, type ReactNode } from 'react';
import type { Wallet, WalletView } from '@/lib/contracts/dashboard';
import { Card, CardHeader } from '../ui/card';
import { cn } from '../ui/cn';
import { fetchJson } from '../ui/fetch-json';
import { PaginationControls } from '../ui/pagination';
import { useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { dateTime, naira } from './money';

const KIND: Record<string, string> = {
  wallet_funding: 'Money in',
  milestone_funding: 'Milestone funded',
  release: 'Release',
  refund: 'Refund',
  dispute_settlement: 'Dispute settlement',
  payout: 'Withdrawal',
  payout_returned: 'Withdrawal returned',
  live_funding: 'Money in',
};

/** Where money paid in lands in this wallet: a live wallet's dedicated bank account (decisions §12). */
function PayInAccount({ wallet }: { wallet: Wallet }) {
  const account = wallet.pgA_provider_account_properties;
  if (!account) return null;
  return (
    <div className="mt-4 rounded-md bg-slate-50 p-3 text-sm" data-testid="pay-in-account">
      <p className="font-medium text-slate-800">Pay into this wallet</p>
      <p className="mt-0.5 text-slate-600">A transfer to this account lands in the wallet.</p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-slate-500">Bank</dt>
        <dd className="break-words">{account.bank_name}</dd>
        <dt className="text-slate-500">Account number</dt>
        <dd className="font-mono">{account.account_number}</dd>
        <dt className="text-slate-500">Account name</dt>
        <dd className="break-words">{account.account_name}</dd>
      </dl>
    </div>
  );
}

/**
 * Balance and ledger history; userId only for admins (a customer's route answers with its own wallet).
 * `children` goes between the balance and the history, with the live wallet (a withdrawal's available balance).
 */
export function WalletPanel({ initial, userId, children }: { initial: WalletView; userId?: string; children?: (wallet: Wallet) => ReactNode }) {
  const [page, setPage] = useState(1);
  const query = useLiveQuery({
    queryKey: ['wallet', userId ?? 'me', page],
    queryFn: () => fetchJson<WalletView>(`/data/wallet?page=${page}${userId ? `&user_id=${userId}` : ''}`),
    initialData: page === 1 ? initial : undefined,
    keepPrevious: true,
  });
  if (query.isPending) return <LoadingState label="Loading the wallet…" />;
  if (query.isError) return <ErrorState message={query.error.message} retry={() => void query.refetch()} />;
  const { wallet, history } = query.data;
  return (
    <div className="space-y-6">
      <Card>
        <p className="text-sm text-slate-600">Available balance</p>
        <p className="mt-1 text-3xl font-semibold tabular-nums text-slate-900" data-testid="wallet-balance">
          {naira(wallet.balance)}
        </p>
        <p className="mt-1 text-xs text-slate-500">Wallet {wallet.account_reference}</p>
        <PayInAccount wallet={wallet} />
      </Card>
      {children?.(wallet)}
      <Card>
        <CardHeader title="History" description="Every movement of money in and out of this wallet, newest first." />
        {history.entries.length === 0 ? (
          <EmptyState title="No movements yet" />
        ) : (
          <div className="overflow-x-auto">
            {/* Narrow screens: the date and description go under "What", so the table fits without scrolling. */}
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Wallet history</caption>
              <thead className="border-b text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="hidden py-2 pr-4 sm:table-cell">
                    When
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    What
                  </th>
                  <th scope="col" className="hidden py-2 pr-4 sm:table-cell">
                    Description
                  </th>
                  <th scope="col" className="py-2 text-right">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {history.entries.map((e) => (
                  <tr key={e.id} className="border-b last:border-0" data-testid="wallet-entry">
                    <td className="hidden whitespace-nowrap py-2 pr-4 text-slate-600 sm:table-cell">{dateTime(e.created_at)}</td>
                    <td className="py-2 pr-4">
                      {KIND[e.kind] ?? e.kind}
                      <span className="block text-xs text-slate-600 [overflow-wrap:anywhere] sm:hidden">
                        {e.description} · {dateTime(e.created_at)}
                      </span>
                    </td>
                    <td className="hidden py-2 pr-4 text-slate-700 [overflow-wrap:anywhere] sm:table-cell">{e.description}</td>
                    <td className={cn('whitespace-nowrap py-2 text-right align-top font-medium tabular-nums', e.amount < 0 ? 'text-rose-700' : 'text-emerald-700')}>
                      {e.amount < 0 ? `−${naira(-e.amount)}` : `+${naira(e.amount)}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <PaginationControls
          page={history.pagination.currentPage}
          pageCount={history.pagination.pageCount}
          total={history.pagination.total}
          onPage={setPage}
          label="movements"
        />
      </Card>
    </div>
  );
}
