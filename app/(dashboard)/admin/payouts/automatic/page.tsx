import type { Metadata } from 'next';
import { AutoPayoutSwitch } from '@/components/admin/payouts-admin';
import { PayoutsTabs } from '@/components/admin/payouts-tabs';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { escrowFor } from '@/lib/server/escrow-client';
import { requireAdmin } from '@/lib/server/dashboard/actor';

export const metadata: Metadata = { title: 'Automatic payouts' };

export default async function AutomaticPayoutsPage() {
  const actor = await requireAdmin();
  const settings = await escrowFor(actor).call('GET /settings');
  return (
    <>
      <PageHeader title="Payouts" description="Money your customers take out of their wallets to their bank accounts." />
      <PayoutsTabs current="/admin/payouts/automatic" />
      {settings.ok ? <AutoPayoutSwitch initial={settings.data} /> : <ErrorState title="The payout setting could not be loaded" message={settings.message} />}
    </>
  );
}
