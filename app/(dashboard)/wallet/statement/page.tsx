import type { Metadata } from 'next';
import Link from 'next/link';
import { WalletStatement } from '@/components/escrow/wallet-statement';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { StatementMonth } from '@/lib/contracts/dashboard-statements';
import { requireCustomer } from '@/lib/server/dashboard/actor';
import { statementView } from '@/lib/server/dashboard/statements';

export const metadata: Metadata = { title: 'Statement' };

/** The customer's own wallet statement for a month (?month=2026-11; the current month otherwise). */
export default async function StatementPage({ searchParams }: { searchParams: Promise<{ month?: string | string[] }> }) {
  const actor = await requireCustomer();
  const asked = StatementMonth.safeParse((await searchParams).month);
  const view = await statementView(actor, actor.escrowUserId, asked.success ? asked.data : undefined);
  return (
    <>
      <p className="mb-1 text-sm text-slate-600">
        <Link href="/wallet" className="underline underline-offset-2">
          Wallet
        </Link>{' '}
        / Statement
      </p>
      <PageHeader title="Statement" description="Where each naira in your wallet came from and went, month by month." />
      {view.kind === 'ok' ? (
        <WalletStatement view={view.view} csvHref={`/data/wallet/statement?month=${view.view.month}`} />
      ) : (
        <ErrorState message={view.kind === 'error' ? view.failure.message : 'Your wallet was not found.'} />
      )}
    </>
  );
}
