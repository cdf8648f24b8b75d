import type { Metadata } from 'next';
import Link from 'next/link';
import { TransactionsAdmin } from '@/components/admin/transactions-admin';
import { TRANSACTION_STATUS } from '@/components/escrow/status-labels';
import { buttonClasses } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { escrowFor } from '@/lib/server/escrow-client';
import { requireAdmin } from '@/lib/server/dashboard/actor';

export const metadata: Metadata = { title: 'Transactions' };

/** ?status= opens the list filtered (the overview's figures link here); an unknown status is ignored. */
export default async function AdminTransactionsPage({ searchParams }: { searchParams: Promise<{ status?: string | string[] }> }) {
  const actor = await requireAdmin();
  const asked = (await searchParams).status;
  const status = typeof asked === 'string' && asked in TRANSACTION_STATUS ? asked : undefined;
  const list = await escrowFor(actor).call('GET /transactions', { query: { page: 1, limit: 20, sort: 'DESC', status } });
  return (
    <>
      <PageHeader
        title="Transactions"
        description="Every escrow transaction of your marketplace."
        actions={
          <Link href="/admin/transactions/new" className={buttonClasses('primary')}>
            New transaction
          </Link>
        }
      />
      {list.ok ? <TransactionsAdmin initial={list.data} status={status} /> : <ErrorState message={list.message} />}
    </>
  );
}
