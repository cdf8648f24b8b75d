import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { TransactionDetail } from '@/components/escrow/transaction-detail';
import { ErrorState } from '@/components/ui/states';
import { requireActor } from '@/lib/server/dashboard/actor';
import { transactionView } from '@/lib/server/dashboard/views';

export const metadata: Metadata = { title: 'Transaction' };

export default async function TransactionPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireActor();
  const view = await transactionView(actor, (await params).id);
  if (view.kind === 'not_found') notFound();
  if (view.kind === 'error') return <ErrorState message={view.failure.message} />;
  return <TransactionDetail initial={view.view} />;
}
