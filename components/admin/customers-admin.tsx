'use client';

import Link from 'next/link';
import type { CustomersView } from '@/lib/contracts/dashboard';
import { day } from '../escrow/format';
import { Badge } from '../ui/badge';
import { Card, CardHeader } from '../ui/card';
import { fetchJson } from '../ui/fetch-json';
import { PaginationControls } from '../ui/pagination';
import { invalidate, useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { lazyForm } from '../ui/lazy-form';
import { Table, type Column } from '../ui/table';
import { ListFilters, useListFilters } from './list-filters';

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
  {
    header: 'Dashboard',
    cell: ({ user, access }) => (user.is_active ? <Badge tone={ACCESS[access].tone}>{ACCESS[access].text}</Badge> : <Badge tone="red">Deactivated</Badge>),
  },
  { header: 'Created', className: 'text-slate-600 sm:whitespace-nowrap', cell: ({ user }) => day(user.created_at) },
];

export function CustomersAdmin({ initial }: { initial: CustomersView }) {
  const filters = useListFilters();
  const { setPage, filtered } = filters;
  const query = useLiveQuery({
    queryKey: ['customers', filters.query],
    queryFn: () => fetchJson<CustomersView>(`/data/customers?${filters.query}`),
    initialData: filters.asServed ? initial : undefined,
    keepPrevious: true,
  });
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
      <Card className="min-w-0">
        <CardHeader title="Customers" description="Buyers and sellers of your marketplace." />
        <ListFilters label="Filter customers" filters={filters} searchLabel="Search by name or email" csvHref="/data/customers/csv" />
        {query.isPending ? (
          <LoadingState label="Loading customers…" />
        ) : query.isError ? (
          <ErrorState message={query.error.message} retry={() => void query.refetch()} />
        ) : query.data.customers.length === 0 ? (
          <EmptyState title={filtered ? 'No customer matches these filters' : 'No customers yet'}>Create one with the form.</EmptyState>
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
