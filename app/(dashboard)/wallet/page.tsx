import type { Metadata } from 'next';
import Link from 'next/link';
import { CustomerWallet } from '@/components/escrow/customer-wallet';
import { TopUpOutcome } from '@/components/escrow/top-up-outcome';
import { buttonClasses } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { CheckoutReference } from '@/lib/contracts/dashboard-statements';
import { requireCustomer } from '@/lib/server/dashboard/actor';
import { BANK_CHOICES } from '@/lib/server/dashboard/banks';
import { myCheckout } from '@/lib/server/dashboard/statements';
import { customerWalletView } from '@/lib/server/dashboard/views';

export const metadata: Metadata = { title: 'Wallet' };

/** ?reference=CO_…: the payment page sent the browser back from a card top-up (docs/decisions.md §16). */
export default async function WalletPage({ searchParams }: { searchParams: Promise<{ reference?: string | string[] }> }) {
  const actor = await requireCustomer();
  const reference = CheckoutReference.safeParse((await searchParams).reference);
  const [wallet, returned] = await Promise.all([customerWalletView(actor), reference.success ? myCheckout(actor, reference.data) : null]);
  const failure = wallet.kind === 'not_found' ? 'Your wallet was not found.' : wallet.kind === 'error' ? wallet.failure.message : null;
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
          <TopUpOutcome checkout={returned.kind === 'ok' ? returned.view : null} balance={wallet.view.wallet.wallet.balance} />
        )
      ) : null}
      {failure === null && wallet.kind === 'ok' ? (
        <CustomerWallet initial={wallet.view} banks={BANK_CHOICES} me={wallet.view.me} />
      ) : (
        <ErrorState message={failure ?? 'Your wallet could not be loaded.'} />
      )}
    </>
  );
}
