import type { Metadata } from 'next';
import Link from 'next/link';
import { CustomerDetail } from '@/components/admin/customer-detail';
import { buttonClasses } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { getDb } from '@/lib/server/db/client';
import { escrowFor } from '@/lib/server/escrow-client';
import { accountsForUsers } from '@/lib/server/dashboard/accounts';
import { requireAdmin } from '@/lib/server/dashboard/actor';
import { payoutsView } from '@/lib/server/dashboard/payouts';
import { customerCheckouts } from '@/lib/server/dashboard/statements';
import { customerForAdmin, walletView } from '@/lib/server/dashboard/views';

export const metadata: Metadata = { title: 'Customer' };

export default async function CustomerPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireAdmin();
  const { id } = await params;
  const user = await customerForAdmin(actor, id);
  if (!user.ok) return <ErrorState message={user.message} />;
  const [wallet, payouts, checkouts, banks, transactions, accounts] = await Promise.all([
    walletView(actor, id),
    payoutsView(actor, { page: 1, user_id: id }),
    customerCheckouts(actor, id),
    escrowFor(actor).call('GET /wallets/banks/list', { query: { user_id: id, limit: 50 } }),
    escrowFor(actor).call('GET /transactions', { query: { user_id: id, limit: 50 } }),
    accountsForUsers(await getDb(), actor.clientId, [id]),
  ]);
  if (wallet.kind !== 'ok') return <ErrorState message={wallet.kind === 'error' ? wallet.failure.message : 'Wallet not found.'} />;
  const account = accounts[0];
  return (
    <>
      <p className="mb-1 text-sm text-slate-600">
        <Link href="/admin/customers" className="underline underline-offset-2">
          Customers
        </Link>{' '}
        / {user.data.first_name} {user.data.last_name}
      </p>
      <PageHeader
        title={`${user.data.first_name} ${user.data.last_name}`}
        description={user.data.email}
        actions={
          <Link href={`/admin/customers/${id}/statement`} className={buttonClasses('secondary', 'md')}>
            Monthly statement
          </Link>
        }
      />
      <CustomerDetail
        user={user.data}
        access={!account ? 'none' : account.passwordHash ? 'active' : 'invited'}
        wallet={wallet.view}
        payouts={payouts.kind === 'ok' ? payouts.view : null}
        checkouts={checkouts.kind === 'ok' ? checkouts.view : null}
        bankAccounts={banks.ok ? banks.data.bank_accounts : []}
        transactions={transactions.ok ? transactions.data.transactions : []}
      />
    </>
  );
}
