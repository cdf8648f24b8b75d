import type { Metadata } from 'next';
import { ArbitrationQueue } from '@/components/dispute-team/arbitration-queue';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { requireDisputeDesk } from '@/lib/server/dashboard/actor';
import { arbitrationQueue } from '@/lib/server/dashboard/dispute-team';

export const metadata: Metadata = { title: 'Arbitration queue' };

export default async function DisputeTeamQueuePage() {
  const team = await requireDisputeDesk();
  const view = await arbitrationQueue(team, 1);
  return (
    <>
      <PageHeader title="Arbitration queue" description="Disputes whose evidence window has closed with evidence from both sides, longest waiting first." />
      {view.kind === 'ok' ? <ArbitrationQueue initial={view.view} /> : <ErrorState message={view.kind === 'error' ? view.failure.message : 'Not found.'} />}
    </>
  );
}
