import type { Metadata } from 'next';
import { AutoPayoutSwitch, PayoutsAdmin } from '@/components/admin/payouts-admin';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { dashboardTestMode, escrowFor } from '@/lib/server/escrow-client';
import { requireAdmin } from '@/lib/server/dashboard/actor';
import { payoutsView } from '@/lib/server/dashboard/payouts';

export const metadata: Metadata = { title: 'Payouts' };

export default async function AdminPayoutsPage() {
  const actor = await requireAdmin();
  const [list, settings, testMode] = await Promise.all([payoutsView(actor, { page: 1 }), escrowFor(actor).call('GET /settings'), dashboardTestMode(actor)]);
  return (
    <>
      <PageHeader title="Payouts" description="Money your customers take out of their wallets to their bank accounts." />
      <div className="space-y-6">
        {settings.ok ? <AutoPayoutSwitch initial={settings.data} /> : <ErrorState title="The payout setting could not be loaded" message={settings.message} />}
        {list.kind === 'ok' ? (
          <PayoutsAdmin initial={list.view} testMode={testMode} />
        ) : (
          <ErrorState message={list.kind === 'error' ? list.failure.message : 'Payouts were not found.'} />
        )}
      </div>
    </>
  );
}
