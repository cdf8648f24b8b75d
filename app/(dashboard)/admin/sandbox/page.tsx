import type { Metadata } from 'next';
import { TestClockControl } from '@/components/admin/lazy-admin-forms';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { requireAdmin } from '@/lib/server/dashboard/actor';
import { escrowFor } from '@/lib/server/escrow-client';

export const metadata: Metadata = { title: 'Test clock' };

export default async function SandboxPage() {
  const actor = await requireAdmin();
  const clock = await escrowFor(actor).call('GET /test-clock');
  return (
    <>
      <PageHeader
        title="Test clock"
        description="Sandbox only: move your marketplace's time forward to see deadlines lapse (inspections accept, returns approve, rejected returns get a dispute, mediation escalates, evidence windows close, declined arbitrations refund the buyer) without waiting days."
      />
      {clock.ok ? <TestClockControl initial={clock.data} /> : <ErrorState message={clock.message} />}
    </>
  );
}
