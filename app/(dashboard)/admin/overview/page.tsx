import type { Metadata } from 'next';
import { OverviewFigures } from '@/components/admin/overview-figures';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { escrowFor } from '@/lib/server/escrow-client';
import { requireAdmin } from '@/lib/server/dashboard/actor';

export const metadata: Metadata = { title: 'Overview' };

const list = (status: string) => `/admin/transactions?status=${status}`;

export default async function AdminOverviewPage() {
  const actor = await requireAdmin();
  const overview = await escrowFor(actor).call('GET /reports/overview');
  return (
    <>
      <PageHeader title="Overview" description="The money your marketplace holds and moved this month, and the disputes that need attention." />
      {overview.ok ? (
        <OverviewFigures
          overview={overview.data}
          links={{
            held: list('MILESTONE_IN_PROGRESS'),
            released: list('COMPLETED'),
            refunded: list('CANCELED'),
            fees: list('COMPLETED'),
            openDisputes: list('MILESTONE_IN_DISPUTE'),
            lateDisputes: list('MILESTONE_IN_DISPUTE'),
          }}
        />
      ) : (
        <ErrorState title="The overview could not be loaded" message={overview.message} />
      )}
    </>
  );
}
