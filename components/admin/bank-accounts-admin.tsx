'use client';

import { useState } from 'react';
import type { Bank, BankAccountList } from '@/lib/contracts/dashboard';
import { day } from '../escrow/money';
import { Card, CardHeader } from '../ui/card';
import { fetchJson } from '../ui/fetch-json';
import { PaginationControls } from '../ui/pagination';
import { invalidate, useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { lazyForm } from '../ui/lazy-form';

const BankAccountForm = lazyForm(() => import('./bank-account-form').then((m) => m.BankAccountForm));

export function BankAccountsAdmin({
  initial,
  banks,
  customers,
  defaultUserId,
}: {
  initial: BankAccountList;
  banks: Bank[];
  customers: Array<{ id: string; name: string }>;
  defaultUserId?: string;
}) {
  const [page, setPage] = useState(1);
  const query = useLiveQuery({
    queryKey: ['bank-accounts', page],
    queryFn: () => fetchJson<BankAccountList>(`/data/bank-accounts?page=${page}`),
    initialData: page === 1 ? initial : undefined,
    keepPrevious: true,
  });
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
      <Card>
        <CardHeader title="Saved accounts" description="Where each customer's releases are paid out." />
        {query.isPending ? (
          <LoadingState />
        ) : query.isError ? (
          <ErrorState message={query.error.message} retry={() => void query.refetch()} />
        ) : query.data.bank_accounts.length === 0 ? (
          <EmptyState title="No bank accounts saved yet" />
        ) : (
          <>
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Saved bank accounts</caption>
                <thead className="border-b text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="py-2 pr-4">
                      Customer
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Account name
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Bank
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Number
                    </th>
                    <th scope="col" className="py-2">
                      Saved
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {query.data.bank_accounts.map((a) => (
                    <tr key={a.id} className="border-b last:border-0">
                      <td className="py-2 pr-4">
                        {a.user.first_name} {a.user.last_name}
                      </td>
                      <td className="py-2 pr-4 font-medium">{a.account_name}</td>
                      <td className="py-2 pr-4">{a.bank_name}</td>
                      <td className="py-2 pr-4 font-mono">{a.account_number}</td>
                      <td className="py-2 text-slate-600">{day(a.created_at)}</td>
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
              label="accounts"
            />
          </>
        )}
      </Card>
      <Card>
        <CardHeader title="Add a bank account" />
        <BankAccountForm banks={banks} customers={customers} defaultUserId={defaultUserId} onSaved={() => void invalidate(['bank-accounts'])} />
      </Card>
    </div>
  );
}
