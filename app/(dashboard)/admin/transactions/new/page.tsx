import type { Metadata } from 'next';
import { CreateTransactionForm } from '@/components/admin/lazy-admin-forms';
import { PageHeader } from '@/components/ui/card';
import { requireAdmin } from '@/lib/server/dashboard/actor';
import { customerOptions } from '@/lib/server/dashboard/options';

export const metadata: Metadata = { title: 'New transaction' };

export default async function NewTransactionPage() {
  const actor = await requireAdmin();
  const customers = await customerOptions(actor, 'new_deal');
  return (
    <>
      <PageHeader title="New transaction" description="A buyer, a seller and one or more milestones, each held in its own escrow." />
      <CreateTransactionForm customers={customers} />
    </>
  );
}
