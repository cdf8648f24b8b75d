import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { CheckoutOutcomeNote } from '@/components/escrow/checkout-outcome';
import { TransactionDetail } from '@/components/escrow/transaction-detail';
import { ErrorState } from '@/components/ui/states';
import { requireActor } from '@/lib/server/dashboard/actor';
import { checkoutOutcome } from '@/lib/server/dashboard/checkout-outcome';
import { transactionView } from '@/lib/server/dashboard/views';

export const metadata: Metadata = { title: 'Transaction' };

export default async function TransactionPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ reference?: string | string[] }> }) {
  const actor = await requireActor();
  const view = await transactionView(actor, (await params).id);
  if (view.kind === 'not_found') notFound();
  if (view.kind === 'error') return <ErrorState message={view.failure.message} />;
  // Back from the payment page (docs/decisions.md §16): the outcome is the API's, read now.
  const { reference } = await searchParams;
  const outcome = await checkoutOutcome(actor, view.view.transaction, view.view.viewer, typeof reference === 'string' ? reference : undefined);
  return (
    <>
      {outcome ? <CheckoutOutcomeNote outcome={outcome} /> : null}
      <TransactionDetail initial={view.view} />
    </>
  );
}
