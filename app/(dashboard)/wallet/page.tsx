import type { Metadata } from 'next';
import Link from 'next/link';
import { CustomerWallet } from '@/components/escrow/customer-wallet';
import { TopUpOutcome } from '@/components/escrow/top-up-outcome';
import { buttonClasses } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { CheckoutReference } from '@/lib/contracts/dashboard-statements';
import { escrowFor } from '@/lib/server/escrow-client';
import { requireCustomer } from '@/lib/server/dashboard/actor';
import { myBankAccounts, payoutsView, personName } from '@/lib/server/dashboard/payouts';
import { myCheckout } from '@/lib/server/dashboard/statements';
import { walletView } from '@/lib/server/dashboard/views';

export const metadata: Metadata = { title: 'Wallet' };

/** ?reference=CO_…: the payment page sent the browser back from a card top-up (docs/decisions.md §16). */
export default async function WalletPage({ searchParams }: { searchParams: Promise<{ reference?: string | string[] }> }) {
  const actor = await requireCustomer();
  const reference = CheckoutReference.safeParse((await searchParams).reference);
  const [wallet, payouts, accounts, banks, me, returned] = await Promise.all([
    walletView(actor, actor.escrowUserId),
    payoutsView(actor, { page: 1 }),
    myBankAccounts(actor, actor.escrowUserId),
    escrowFor(actor).call('GET /wallets/banks'),
    personName(actor, actor.escrowUserId),
    reference.success ? myCheckout(actor, reference.data) : null,
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
      <PageHeader
        title="Wallet"
        description="Releases, refunds and settlements land here; add money by card, or withdraw it to your bank account."
        actions={
          <Link href="/wallet/statement" className={buttonClasses('secondary', 'md')}>
            Monthly statement
          </Link>
        }
      />
      {returned && wallet.kind === 'ok' ? (
        returned.kind === 'error' ? (
          <ErrorState message={returned.failure.message} />
        ) : (
          <TopUpOutcome checkout={returned.kind === 'ok' ? returned.view : null} balance={wallet.view.wallet.balance} />
        )
      ) : null}
      {failure === null && wallet.kind === 'ok' && payouts.kind === 'ok' && accounts.kind === 'ok' && banks.ok && me.ok ? (
        <CustomerWallet initial={{ wallet: wallet.view, payouts: payouts.view, accounts: accounts.view }} banks={banks.data} me={me.name} />
      ) : (
        <ErrorState message={failure ?? 'Your wallet could not be loaded.'} />
      )}
    </>
  );
}
