'use client';

import { useState } from 'react';
import { removeBankAccount } from '@/lib/actions/bank-accounts';
import type { BankAccountList } from '@/lib/contracts/dashboard';
import { ConfirmAction } from '../escrow/confirm-action';
import { day } from '../escrow/format';
import { NameDiffers } from '../escrow/saved-accounts';
import { Card, CardHeader } from '../ui/card';
import { fetchJson } from '../ui/fetch-json';
import { PaginationControls } from '../ui/pagination';
import { invalidate, useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { lazyForm } from '../ui/lazy-form';
import { Table, type Column } from '../ui/table';

const BankAccountForm = lazyForm(() => import('./bank-account-form').then((m) => m.BankAccountForm));

const COLUMNS: Column<BankAccountList['bank_accounts'][number]>[] = [
  { header: 'Customer', primary: true, cell: (a) => `${a.user.first_name} ${a.user.last_name}` },
  {
    header: 'Account name',
    cell: (a) => (
      <>
        <span className="font-medium">{a.account_name}</span>
        {a.name_matches === false ? (
          <span className="ml-2">
            <NameDiffers />
          </span>
        ) : null}
      </>
    ),
  },
  { header: 'Bank', cell: (a) => a.bank_name },
  { header: 'Number', className: 'font-mono', cell: (a) => a.account_number },
  { header: 'Saved', className: 'text-slate-600 sm:whitespace-nowrap', cell: (a) => day(a.created_at) },
  {
    header: 'Actions',
    hideHeader: true,
    align: 'right',
    cell: (a) => (
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
    ),
  },
];

export function BankAccountsAdmin({ initial, defaultUserId }: { initial: BankAccountList; defaultUserId?: string }) {
  const [page, setPage] = useState(1);
  const query = useLiveQuery({
    queryKey: ['bank-accounts', page],
    queryFn: () => fetchJson<BankAccountList>(`/data/bank-accounts?page=${page}`),
    initialData: page === 1 ? initial : undefined,
    keepPrevious: true,
  });
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
      {/* min-w-0: a grid item otherwise grows to its widest content (an account name, an email) past the window. */}
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
            <Table caption="Saved bank accounts" rows={query.data.bank_accounts} rowKey={(a) => a.id} columns={COLUMNS} />
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
        <BankAccountForm defaultUserId={defaultUserId} onSaved={() => void invalidate(['bank-accounts'])} />
      </Card>
    </div>
  );
}
