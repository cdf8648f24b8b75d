import type { Metadata } from 'next';
import { MyTransactions } from '@/components/escrow/my-transactions';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { requireCustomer } from '@/lib/server/dashboard/actor';
import { myTransactions } from '@/lib/server/dashboard/views';

export const metadata: Metadata = { title: 'My transactions' };

export default async function MyTransactionsPage() {
  const actor = await requireCustomer();
  const view = await myTransactions(actor, 1);
  return (
    <>
      <PageHeader title="My transactions" description="As buyer and as seller. Those waiting for you come first." />
      {view.kind === 'ok' ? <MyTransactions initial={view.view} /> : <ErrorState message={view.kind === 'error' ? view.failure.message : 'Your customer record was not found.'} />}
    </>
  );
}
