'use client';

import Link from 'next/link';
import type { TransactionList } from '@/lib/contracts/dashboard';
import { TRANSACTION_STATUS } from '../escrow/status-labels';
import { day, naira } from '../escrow/format';
import { StatusBadge } from '../escrow/status-badge';
import { Card } from '../ui/card';
import { fetchJson } from '../ui/fetch-json';
import { PaginationControls } from '../ui/pagination';
import { useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { ListFilters, useListFilters } from './list-filters';
import { Table, type Column } from '../ui/table';

const COLUMNS: Column<TransactionList['transactions'][number]>[] = [
  {
    header: 'Title',
    primary: true,
    cell: (t) => (
      <>
        <Link href={`/transactions/${t.id}`} className="font-medium text-emerald-800 underline-offset-2 hover:underline">
          {t.title}
        </Link>
        {t.external_reference ? (
          <span className="block break-all font-mono text-xs text-slate-600" data-testid="external-reference">
            {t.external_reference}
          </span>
        ) : null}
      </>
    ),
  },
  {
    header: 'Buyer → Seller',
    className: 'text-slate-700',
    cell: (t) => `${t.buyer.user.first_name} ${t.buyer.user.last_name} → ${t.seller.user.first_name} ${t.seller.user.last_name}`,
  },
  { header: 'Status', cell: (t) => <StatusBadge kind="transaction" status={t.status} /> },
  { header: 'Amount', align: 'right', className: 'tabular-nums sm:whitespace-nowrap', cell: (t) => naira(t.transaction_amount) },
  { header: 'Created', className: 'text-slate-600 sm:whitespace-nowrap', cell: (t) => day(t.created_at) },
];

export function TransactionsAdmin({ initial, status }: { initial: TransactionList; status?: string }) {
  const filters = useListFilters({ status });
  const { setPage, filtered } = filters;
  const query = useLiveQuery({
    queryKey: ['admin-transactions', filters.query],
    queryFn: () => fetchJson<TransactionList>(`/data/admin-transactions?${filters.query}`),
    initialData: filters.asServed ? initial : undefined,
    keepPrevious: true,
  });
  return (
    <Card>
      <ListFilters
        label="Filter transactions"
        filters={filters}
        searchLabel="Search transactions"
        searchPlaceholder="Title or external reference"
        statuses={TRANSACTION_STATUS}
        customers
        amounts
        csvHref="/data/admin-transactions/csv"
      />
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
          <Table
            caption="Transactions"
            rows={query.data.transactions}
            rowKey={(t) => t.id}
            columns={COLUMNS}
          />
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
