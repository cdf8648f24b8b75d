import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ArbitrationDetail } from '@/components/dispute-team/arbitration-detail';
import { ErrorState } from '@/components/ui/states';
import { requireDisputeDesk } from '@/lib/server/dashboard/actor';
import { arbitrationView } from '@/lib/server/dashboard/dispute-team';

export const metadata: Metadata = { title: 'Arbitration' };

export default async function ArbitrationPage({ params }: { params: Promise<{ id: string }> }) {
  const team = await requireDisputeDesk();
  const view = await arbitrationView(team, (await params).id);
  if (view.kind === 'not_found') notFound();
  if (view.kind === 'error') return <ErrorState message={view.failure.message} />;
  return <ArbitrationDetail initial={view.view} />;
}
