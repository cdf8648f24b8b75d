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

const CreateCustomerForm = lazyForm(() => import('./create-customer-form').then((m) => m.CreateCustomerForm));

const ACCESS = { active: { text: 'Signs in', tone: 'green' }, invited: { text: 'Invited', tone: 'amber' }, none: { text: 'No access', tone: 'grey' } } as const;

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
      <Card>
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
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Customers</caption>
                <thead className="border-b text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="py-2 pr-4">
                      Name
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Email
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Dashboard
                    </th>
                    <th scope="col" className="py-2">
                      Created
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {query.data.customers.map(({ user, access }) => (
                    <tr key={user.id} className="border-b last:border-0">
                      <td className="py-2 pr-4">
                        <Link href={`/admin/customers/${user.id}`} className="font-medium text-emerald-800 underline-offset-2 hover:underline">
                          {user.first_name} {user.last_name}
                        </Link>
                      </td>
                      <td className="py-2 pr-4 text-slate-700">{user.email}</td>
                      <td className="py-2 pr-4">
                        <Badge tone={ACCESS[access].tone}>{ACCESS[access].text}</Badge>
                      </td>
                      <td className="py-2 text-slate-600">{day(user.created_at)}</td>
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
              label="customers"
            />
          </>
        )}
      </Card>
      <Card>
        <CardHeader title="New customer" description="Creates the customer and its wallet." />
        <CreateCustomerForm onCreated={() => void invalidate(['customers'])} />
      </Card>
    </div>
  );
}
