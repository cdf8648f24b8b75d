import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { DisputeDetail } from '@/components/escrow/dispute-detail';
import { ErrorState } from '@/components/ui/states';
import { requireActor } from '@/lib/server/dashboard/actor';
import { disputeView } from '@/lib/server/dashboard/views';

export const metadata: Metadata = { title: 'Dispute' };

export default async function DisputePage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireActor();
  const view = await disputeView(actor, (await params).id);
  if (view.kind === 'not_found') notFound();
  if (view.kind === 'error') return <ErrorState message={view.failure.message} />;
  return <DisputeDetail initial={view.view} />;
}
