'use client';

import Link from 'next/link';
import { useEffect, useState } from 'react';
import type { CustomersView } from '@/lib/contracts/dashboard';
import { day } from '../escrow/money';
import { Badge } from '../ui/badge';
import { Card, CardHeader } from '../ui/card';
import { fetchJson } from '../ui/fetch-json';
import { TextField } from '../ui/field';
import { PaginationControls } from '../ui/pagination';
import { invalidate, useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { lazyForm } from '../ui/lazy-form';
import { Table, type Column } from '../ui/table';

const CreateCustomerForm = lazyForm(() => import('./create-customer-form').then((m) => m.CreateCustomerForm));

const ACCESS = { active: { text: 'Signs in', tone: 'green' }, invited: { text: 'Invited', tone: 'amber' }, none: { text: 'No access', tone: 'grey' } } as const;

const COLUMNS: Column<CustomersView['customers'][number]>[] = [
  {
    header: 'Name',
    primary: true,
    cell: ({ user }) => (
      <Link href={`/admin/customers/${user.id}`} className="font-medium text-emerald-800 underline-offset-2 hover:underline">
        {user.first_name} {user.last_name}
      </Link>
    ),
  },
  { header: 'Email', className: 'text-slate-700', cell: ({ user }) => user.email },
  { header: 'Dashboard', cell: ({ access }) => <Badge tone={ACCESS[access].tone}>{ACCESS[access].text}</Badge> },
  { header: 'Created', className: 'text-slate-600 sm:whitespace-nowrap', cell: ({ user }) => day(user.created_at) },
];

export function CustomersAdmin({ initial }: { initial: CustomersView }) {
  const [page, setPage] = useState(1);
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const query = useLiveQuery({
    queryKey: ['customers', page, search],
    queryFn: () => fetchJson<CustomersView>(`/data/customers?page=${page}&search=${encodeURIComponent(search)}`),
    initialData: page === 1 && search === '' ? initial : undefined,
    keepPrevious: true,
  });
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
      <Card className="min-w-0">
        <CardHeader title="Customers" description="Buyers and sellers of your marketplace." />
        <TextField label="Search by name or email" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} className="mb-4 max-w-sm" />
        {query.isPending ? (
          <LoadingState label="Loading customers…" />
        ) : query.isError ? (
          <ErrorState message={query.error.message} retry={() => void query.refetch()} />
        ) : query.data.customers.length === 0 ? (
          <EmptyState title={search ? `No customer matches “${search}”` : 'No customers yet'}>Create one with the form.</EmptyState>
        ) : (
          <>
            <Table caption="Customers" rows={query.data.customers} rowKey={(c) => c.user.id} columns={COLUMNS} />
            <PaginationControls
              page={query.data.pagination.currentPage}
              pageCount={query.data.pagination.pageCount}
              total={query.data.pagination.total}
              onPage={setPage}
              label="customers"
            />
          </>
        )}
      </Card>
      <Card className="min-w-0">
        <CardHeader title="New customer" description="Creates the customer and its wallet." />
        <CreateCustomerForm onCreated={() => void invalidate(['customers'])} />
      </Card>
    </div>
  );
}
