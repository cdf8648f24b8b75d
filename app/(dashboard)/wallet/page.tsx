import type { Metadata } from 'next';
import { CustomerWallet } from '@/components/escrow/customer-wallet';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { escrowFor } from '@/lib/server/escrow-client';
import { requireCustomer } from '@/lib/server/dashboard/actor';
import { myBankAccounts, payoutsView, personName } from '@/lib/server/dashboard/payouts';
import { walletView } from '@/lib/server/dashboard/views';

export const metadata: Metadata = { title: 'Wallet' };

export default async function WalletPage() {
  const actor = await requireCustomer();
  const [wallet, payouts, accounts, banks, me] = await Promise.all([
    walletView(actor, actor.escrowUserId),
    payoutsView(actor, { page: 1 }),
    myBankAccounts(actor, actor.escrowUserId),
    escrowFor(actor).call('GET /wallets/banks'),
    personName(actor, actor.escrowUserId),
  ]);
  const failure =
    wallet.kind === 'not_found'
      ? 'Your wallet was not found.'
      : wallet.kind === 'error'
        ? wallet.failure.message
        : payouts.kind === 'error'
          ? payouts.failure.message
          : accounts.kind === 'error'
            ? accounts.failure.message
            : !banks.ok
              ? banks.message
              : !me.ok
                ? me.failure.message
                : null;
  return (
    <>
      <PageHeader title="Wallet" description="Releases, refunds and settlements land here; withdraw them to your bank account." />
      {failure === null && wallet.kind === 'ok' && payouts.kind === 'ok' && accounts.kind === 'ok' && banks.ok && me.ok ? (
        <CustomerWallet initial={{ wallet: wallet.view, payouts: payouts.view, accounts: accounts.view }} banks={banks.data} me={me.name} />
      ) : (
        <ErrorState message={failure ?? 'Your wallet could not be loaded.'} />
      )}
    </>
  );
}
