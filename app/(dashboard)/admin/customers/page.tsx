import type { Metadata } from 'next';
import { CustomersAdmin } from '@/components/admin/customers-admin';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { requireAdmin } from '@/lib/server/dashboard/actor';
import { customersView } from '@/lib/server/dashboard/views';

export const metadata: Metadata = { title: 'Customers' };

export default async function CustomersPage() {
  const actor = await requireAdmin();
  const view = await customersView(actor, { page: 1 });
  return (
    <>
      <PageHeader title="Customers" description="Create buyers and sellers, invite them to the dashboard, fund sandbox wallets." />
      {view.kind === 'ok' ? <CustomersAdmin initial={view.view} /> : <ErrorState message={view.kind === 'error' ? view.failure.message : 'Not found.'} />}
    </>
  );
}
