import type { Metadata } from 'next';
import { BankAccountsAdmin } from '@/components/admin/bank-accounts-admin';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { escrowFor } from '@/lib/server/escrow-client';
import { requireAdmin } from '@/lib/server/dashboard/actor';
import { customerOptions } from '@/lib/server/dashboard/options';

export const metadata: Metadata = { title: 'Bank accounts' };

export default async function BankAccountsPage({ searchParams }: { searchParams: Promise<{ user_id?: string }> }) {
  const actor = await requireAdmin();
  const { user_id } = await searchParams;
  const [accounts, banks, customers] = await Promise.all([escrowFor(actor).call('GET /wallets/banks/list', { query: { page: 1, limit: 20, sort: 'DESC' } }), escrowFor(actor).call('GET /wallets/banks'), customerOptions(actor)]);
  return (
    <>
      <PageHeader title="Disbursement bank accounts" description="Releases and refunds are paid out to these accounts." />
      {accounts.ok && banks.ok ? (
        <BankAccountsAdmin initial={accounts.data} banks={banks.data} customers={customers} defaultUserId={customers.some((c) => c.id === user_id) ? user_id : undefined} />
      ) : (
        <ErrorState message={!accounts.ok ? accounts.message : !banks.ok ? banks.message : ''} />
      )}
    </>
  );
}
