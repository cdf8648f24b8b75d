'use client';

import Link from 'next/link';
import { useState } from 'react';
import type { MyTransactionItem, MyTransactionsView } from '@/lib/contracts/dashboard';
import { Badge } from '../ui/badge';
import { fetchJson } from '../ui/fetch-json';
import { PaginationControls } from '../ui/pagination';
import { useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { ACTION_LABEL } from './action-labels';
import { labelOf, MILESTONE_STATUS } from './status-labels';
import { dateTime, naira } from './format';
import { StatusBadge } from './status-badge';

function Row({ item }: { item: MyTransactionItem }) {
  const t = item.transaction;
  const counterparty = item.role === 'buyer' ? t.seller.user : t.buyer.user;
  const todo = [...new Set(item.awaiting.map((a) => ACTION_LABEL[a] ?? a))];
  return (
    <li>
      <Link
        href={item.href}
        className="flex flex-wrap items-center justify-between gap-3 rounded-lg border bg-white px-4 py-3 shadow-sm hover:border-emerald-300 focus-visible:outline-2 focus-visible:outline-emerald-700"
      >
        <div className="min-w-0">
          <p className="break-words font-medium text-slate-900">{t.title}</p>
          <p className="break-words text-sm text-slate-600">
            You are the <strong>{item.role}</strong> · with {counterparty.first_name} {counterparty.last_name}
            {item.currentMilestone ? ` · now: ${item.currentMilestone.title} (${labelOf(MILESTONE_STATUS, item.currentMilestone.status).label.toLowerCase()})` : ''}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {todo.length > 0 ? <Badge tone="amber">Your move: {todo.join(', ')}</Badge> : null}
          {todo.length > 0 && item.dueAt ? (
            <span className="text-sm text-slate-700" data-testid="turn-due">
              by <time dateTime={item.dueAt}>{dateTime(item.dueAt)}</time>
            </span>
          ) : null}
          <StatusBadge kind="transaction" status={t.status} />
          <span className="font-medium tabular-nums">{naira(t.transaction_amount)}</span>
        </div>
      </Link>
    </li>
  );
}

export function MyTransactions({ initial }: { initial: MyTransactionsView }) {
  const [page, setPage] = useState(1);
  const query = useLiveQuery({
    queryKey: ['my-transactions', page],
    queryFn: () => fetchJson<MyTransactionsView>(`/data/my-transactions?page=${page}`),
    initialData: page === 1 ? initial : undefined,
  });
  if (query.isPending) return <LoadingState label="Loading your transactions…" />;
  if (query.isError) return <ErrorState message={query.error.message} retry={() => void query.refetch()} />;
  const { items, pagination } = query.data;
  if (items.length === 0) return <EmptyState title="No transactions yet">When a marketplace opens an escrow transaction with you, it appears here.</EmptyState>;
  const needs = items.filter((i) => i.awaiting.length > 0);
  const rest = items.filter((i) => i.awaiting.length === 0);
  return (
    <div className="space-y-8">
      <section aria-labelledby="needs-heading">
        <h2 id="needs-heading" className="mb-3 text-lg font-semibold">
          Needs your action <span className="text-slate-500">({needs.length})</span>
        </h2>
        {needs.length ? (
          <ul className="space-y-2">
            {needs.map((i) => (
              <Row key={i.transaction.id} item={i} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">Nothing is waiting for you.</p>
        )}
      </section>
      <section aria-labelledby="others-heading">
        <h2 id="others-heading" className="mb-3 text-lg font-semibold">
          Everything else
        </h2>
        {rest.length ? (
          <ul className="space-y-2">
            {rest.map((i) => (
              <Row key={i.transaction.id} item={i} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">No other transactions.</p>
        )}
      </section>
      <PaginationControls page={pagination.currentPage} pageCount={pagination.pageCount} total={pagination.total} onPage={setPage} label="transactions" />
    </div>
  );
}
