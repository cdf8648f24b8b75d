import type { Metadata } from 'next';
import { PayoutsAdmin } from '@/components/admin/payouts-admin';
import { PayoutsTabs } from '@/components/admin/payouts-tabs';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { dashboardTestMode } from '@/lib/server/escrow-client';
import { requireAdmin } from '@/lib/server/dashboard/actor';
import { payoutsView } from '@/lib/server/dashboard/payouts';

export const metadata: Metadata = { title: 'Payouts' };

export default async function AdminPayoutsPage() {
  const actor = await requireAdmin();
  const [list, testMode] = await Promise.all([payoutsView(actor, { page: 1 }), dashboardTestMode(actor)]);
  return (
    <>
      <PageHeader title="Payouts" description="Money your customers take out of their wallets to their bank accounts." />
      <PayoutsTabs current="/admin/payouts" />
      {list.kind === 'ok' ? <PayoutsAdmin initial={list.view} testMode={testMode} /> : <ErrorState message={list.kind === 'error' ? list.failure.message : 'Payouts were not found.'} />}
    </>
  );
}
