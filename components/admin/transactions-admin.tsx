'use client';

import Link from 'next/link';
import type { TransactionList } from '@/lib/contracts/dashboard';
import { TRANSACTION_STATUS } from '../escrow/labels';
import { day, naira } from '../escrow/money';
import { StatusBadge } from '../escrow/status-badge';
import { Card } from '../ui/card';
import { fetchJson } from '../ui/fetch-json';
import { PaginationControls } from '../ui/pagination';
import { useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { ListFilters, useListFilters } from './list-filters';

export function TransactionsAdmin({ initial, customers }: { initial: TransactionList; customers: Array<{ id: string; name: string }> }) {
  const filters = useListFilters();
  const { page, setPage, filtered } = filters;
  const query = useLiveQuery({
    queryKey: ['admin-transactions', filters.query],
    queryFn: () => fetchJson<TransactionList>(`/data/admin-transactions?${filters.query}`),
    initialData: page === 1 && !filtered ? initial : undefined,
    keepPrevious: true,
  });
  return (
    <Card>
      <ListFilters label="Filter transactions" filters={filters} statuses={TRANSACTION_STATUS} customers={customers} />
      {query.isPending ? (
        <LoadingState label="Loading transactions…" />
      ) : query.isError ? (
        <ErrorState message={query.error.message} retry={() => void query.refetch()} />
      ) : query.data.transactions.length === 0 ? (
        <EmptyState title={filtered ? 'No transaction matches these filters' : 'No transactions yet'}>
          <Link href="/admin/transactions/new" className="text-emerald-800 underline">
            Create one
          </Link>
        </EmptyState>
      ) : (
        <>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Transactions</caption>
              <thead className="border-b text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    Title
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Buyer → Seller
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Status
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Amount
                  </th>
                  <th scope="col" className="py-2">
                    Created
                  </th>
                </tr>
              </thead>
              <tbody>
                {query.data.transactions.map((t) => (
                  <tr key={t.id} className="border-b last:border-0">
                    <td className="py-2 pr-4">
                      <Link href={`/transactions/${t.id}`} className="font-medium text-emerald-800 underline-offset-2 hover:underline">
                        {t.title}
                      </Link>
                    </td>
                    <td className="py-2 pr-4 text-slate-700">
                      {t.buyer.user.first_name} {t.buyer.user.last_name} → {t.seller.user.first_name} {t.seller.user.last_name}
                    </td>
                    <td className="py-2 pr-4">
                      <StatusBadge kind="transaction" status={t.status} />
                    </td>
                    <td className="py-2 pr-4 text-right tabular-nums">{naira(t.transaction_amount)}</td>
                    <td className="py-2 text-slate-600">{day(t.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <PaginationControls
            page={query.data.pagination.currentPage}
            pageCount={query.data.pagination.pageCount}
            total={query.data.pagination.total}
            onPage={setPage}
            label="transactions"
          />
        </>
      )}
    </Card>
  );
}
