import type { Metadata } from 'next';
import { ClientsAdmin } from '@/components/operator/clients-admin';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { requireOperator } from '@/lib/server/dashboard/actor';
import { clientsView } from '@/lib/server/dashboard/operator';

export const metadata: Metadata = { title: 'Clients' };

export default async function OperatorClientsPage() {
  await requireOperator();
  const view = await clientsView();
  return (
    <>
      <PageHeader title="Clients" description="Every marketplace this Escrow Desk serves: create one, set its fees and KYC, and invite its first admin." />
      {view.kind === 'ok' ? <ClientsAdmin clients={view.view} /> : <ErrorState message={view.kind === 'error' ? view.failure.message : 'Not found.'} />}
    </>
  );
}
