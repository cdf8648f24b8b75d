'use client';

import { useState } from 'react';
import type { WalletView } from '@/lib/contracts/dashboard';
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
};

/** Balance and ledger history; userId only for admins (a customer's route answers with its own wallet). */
export function WalletPanel({ initial, userId }: { initial: WalletView; userId?: string }) {
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
      </Card>
      <Card>
        <CardHeader title="History" description="Every movement of money in and out of this wallet, newest first." />
        {history.entries.length === 0 ? (
          <EmptyState title="No movements yet" />
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Wallet history</caption>
              <thead className="border-b text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    When
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    What
                  </th>
                  <th scope="col" className="py-2 pr-4">
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
                    <td className="whitespace-nowrap py-2 pr-4 text-slate-600">{dateTime(e.created_at)}</td>
                    <td className="py-2 pr-4">{KIND[e.kind] ?? e.kind}</td>
                    <td className="py-2 pr-4 text-slate-700">{e.description}</td>
                    <td className={cn('whitespace-nowrap py-2 text-right font-medium tabular-nums', e.amount < 0 ? 'text-rose-700' : 'text-emerald-700')}>
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
