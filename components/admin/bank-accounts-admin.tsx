'use client';

import { useState } from 'react';
import { removeBankAccount } from '@/app/(dashboard)/admin/bank-accounts/actions';
import type { Bank, BankAccountList } from '@/lib/contracts/dashboard';
import { ConfirmAction } from '../escrow/confirm-action';
import { day } from '../escrow/money';
import { NameDiffers } from '../escrow/saved-accounts';
import { Card, CardHeader } from '../ui/card';
import { fetchJson } from '../ui/fetch-json';
import { PaginationControls } from '../ui/pagination';
import { invalidate, useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { lazyForm } from '../ui/lazy-form';

const BankAccountForm = lazyForm(() => import('./bank-account-form').then((m) => m.BankAccountForm));
type CustomerOption = { id: string; name: string; firstName?: string; lastName?: string };

export function BankAccountsAdmin({
  initial,
  banks,
  customers,
  defaultUserId,
}: {
  initial: BankAccountList;
  banks: Bank[];
  customers: CustomerOption[];
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
      {/* min-w-0: a grid item otherwise grows to its table's width instead of letting the table scroll. */}
      <Card className="min-w-0">
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
              {/* Narrow screens: the account goes under its customer, so the table fits without scrolling. */}
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Saved bank accounts</caption>
                <thead className="border-b text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="py-2 pr-4">
                      Customer
                    </th>
                    <th scope="col" className="hidden py-2 pr-4 sm:table-cell">
                      Account name
                    </th>
                    <th scope="col" className="hidden py-2 pr-4 sm:table-cell">
                      Bank
                    </th>
                    <th scope="col" className="hidden py-2 pr-4 sm:table-cell">
                      Number
                    </th>
                    <th scope="col" className="hidden py-2 pr-4 sm:table-cell">
                      Saved
                    </th>
                    <th scope="col" className="py-2">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {query.data.bank_accounts.map((a) => (
                    <tr key={a.id} className="border-b last:border-0">
                      <td className="py-2 pr-4">
                        {a.user.first_name} {a.user.last_name}
                        <span className="block sm:hidden">
                          <span className="font-medium">{a.account_name}</span>
                          {a.name_matches === false ? (
                            <span className="ml-2">
                              <NameDiffers />
                            </span>
                          ) : null}
                          <span className="block text-slate-600">
                            {a.bank_name} · <span className="font-mono">{a.account_number}</span>
                          </span>
                        </span>
                      </td>
                      <td className="hidden py-2 pr-4 sm:table-cell">
                        <span className="font-medium">{a.account_name}</span>
                        {a.name_matches === false ? (
                          <span className="ml-2">
                            <NameDiffers />
                          </span>
                        ) : null}
                      </td>
                      <td className="hidden py-2 pr-4 sm:table-cell">{a.bank_name}</td>
                      <td className="hidden py-2 pr-4 font-mono sm:table-cell">{a.account_number}</td>
                      <td className="hidden whitespace-nowrap py-2 pr-4 text-slate-600 sm:table-cell">{day(a.created_at)}</td>
                      <td className="py-2 text-right">
                        <ConfirmAction
                          label="Remove"
                          size="sm"
                          variant="secondary"
                          confirmVariant="danger"
                          accessibleLabel={`Remove ${a.account_name}’s account at ${a.bank_name}`}
                          title="Remove this bank account?"
                          description={`${a.account_name}, ${a.bank_name}, ${a.account_number}: ${a.user.first_name} ${a.user.last_name} will no longer be paid to this account. Payouts already made to it keep their record.`}
                          confirmLabel="Remove account"
                          run={() => removeBankAccount({ bank_account_id: a.id })}
                          onDone={() => void invalidate(['bank-accounts'])}
                        />
                      </td>
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
      <Card className="min-w-0">
        <CardHeader title="Add a bank account" />
        <BankAccountForm banks={banks} customers={customers} defaultUserId={defaultUserId} onSaved={() => void invalidate(['bank-accounts'])} />
      </Card>
    </div>
  );
}
