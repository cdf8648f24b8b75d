import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { WalletStatement } from '@/components/escrow/wallet-statement';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { StatementMonth } from '@/lib/contracts/dashboard-statements';
import { requireAdmin } from '@/lib/server/dashboard/actor';
import { statementView } from '@/lib/server/dashboard/statements';

export const metadata: Metadata = { title: 'Customer statement' };

/** A customer's wallet statement for a month, as the admin of its client reads it. */
export default async function CustomerStatementPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ month?: string | string[] }> }) {
  const actor = await requireAdmin();
  const { id } = await params;
  const asked = StatementMonth.safeParse((await searchParams).month);
  // The statement names its wallet's owner: one request for the page; an unknown or malformed id is its 404.
  const view = await statementView(actor, id, asked.success ? asked.data : undefined);
  if (view.kind === 'not_found' || (view.kind === 'error' && view.failure.status === 400)) notFound();
  if (view.kind === 'error') return <ErrorState message={view.failure.message} />;
  const user = view.view.statement.user;
  const name = `${user.first_name} ${user.last_name}`;
  return (
    <>
      <p className="mb-1 text-sm text-slate-600">
        <Link href="/admin/customers" className="underline underline-offset-2">
          Customers
        </Link>{' '}
        /{' '}
        <Link href={`/admin/customers/${id}`} className="underline underline-offset-2">
          {name}
        </Link>{' '}
        / Statement
      </p>
      <PageHeader title={`${name}: statement`} description="Every movement of the customer’s wallet in the month, with the balance after each." />
      <WalletStatement view={view.view} csvHref={`/data/wallet/statement?${new URLSearchParams({ month: view.view.month, user_id: id })}`} />
    </>
  );
}
