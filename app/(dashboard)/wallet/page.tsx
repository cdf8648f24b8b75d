import type { Metadata } from 'next';
import { WalletPanel } from '@/components/escrow/wallet-panel';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { requireCustomer } from '@/lib/server/dashboard/actor';
import { walletView } from '@/lib/server/dashboard/views';

export const metadata: Metadata = { title: 'Wallet' };

export default async function WalletPage() {
  const actor = await requireCustomer();
  const view = await walletView(actor.escrowUserId);
  return (
    <>
      <PageHeader title="Wallet" description="Releases, refunds and settlements land here." />
      {view.kind === 'ok' ? <WalletPanel initial={view.view} /> : <ErrorState message={view.kind === 'error' ? view.failure.message : 'Your wallet was not found.'} />}
    </>
  );
}
