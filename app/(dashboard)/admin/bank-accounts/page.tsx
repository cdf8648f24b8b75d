import type { Metadata } from 'next';
import { BankAccountsAdmin } from '@/components/admin/bank-accounts-admin';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { escrowFor } from '@/lib/server/escrow-client';
import { requireAdmin } from '@/lib/server/dashboard/actor';
import { Id } from '@/lib/contracts/common';

export const metadata: Metadata = { title: 'Bank accounts' };

export default async function BankAccountsPage({ searchParams }: { searchParams: Promise<{ user_id?: string }> }) {
  const actor = await requireAdmin();
  const { user_id } = await searchParams;
  const accounts = await escrowFor(actor).call('GET /wallets/banks/list', { query: { page: 1, limit: 20, sort: 'DESC' } });
  // ?user_id= (a customer page's "Add") only preselects: the form's customers, read when it is reached for, hold it or not.
  const defaultUserId = Id.safeParse(user_id).success ? user_id : undefined;
  return (
    <>
      <PageHeader title="Disbursement bank accounts" description="Releases and refunds are paid out to these accounts." />
      {accounts.ok ? <BankAccountsAdmin initial={accounts.data} defaultUserId={defaultUserId} /> : <ErrorState message={accounts.message} />}
    </>
  );
}
