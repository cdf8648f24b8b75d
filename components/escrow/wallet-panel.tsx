'use client';

import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import type { Wallet, WalletEntry, WalletView } from '@/lib/contracts/dashboard';
import { Card, CardHeader } from '../ui/card';
import { fetchJson } from '../ui/fetch-json';
import { PaginationControls } from '../ui/pagination';
import { useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { Table } from '../ui/table';
import { dateTime, naira } from './format';

const KIND: Record<string, string> = {
  wallet_funding: 'Money in',
  milestone_funding: 'Milestone funded',
  release: 'Release',
  refund: 'Refund',
  dispute_settlement: 'Dispute settlement',
  payout: 'Withdrawal',
  payout_returned: 'Withdrawal returned',
  live_funding: 'Money in',
  checkout_payment: 'Card payment',
};

/** Where money paid in lands in this wallet: a live wallet's dedicated bank account (docs/decisions.md §12). */
function PayInAccount({ wallet }: { wallet: Wallet }) {
  const account = wallet.pgA_provider_account_properties;
  if (!account) return null;
  return (
    <div className="mt-4 rounded-md bg-slate-50 p-3 text-sm" data-testid="pay-in-account">
      <p className="font-medium text-slate-800">Pay into this wallet</p>
      <p className="mt-0.5 text-slate-600">A transfer to this account lands in the wallet.</p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-slate-500">Bank</dt>
        <dd className="break-words">{account.bank_name}</dd>
        <dt className="text-slate-500">Account number</dt>
        <dd className="font-mono">{account.account_number}</dd>
        <dt className="text-slate-500">Account name</dt>
        <dd className="break-words">{account.account_name}</dd>
      </dl>
    </div>
  );
}

/** A line's description and, when it belongs to a deal, which one: two "Funding of milestone 1" lines differ by their deal. */
function EntryDescription({ entry }: { entry: WalletEntry }) {
  if (!entry.transaction_id) return <>{entry.description}</>;
  return (
    <>
      {entry.description}
      <span className="mt-0.5 block text-xs text-slate-500" data-testid="wallet-entry-deal">
        <Link href={`/transactions/${entry.transaction_id}`} className="font-medium text-emerald-800 underline-offset-2 hover:underline">
          {entry.transaction_title}
        </Link>
        {entry.milestone_title ? ` · ${entry.milestone_title}` : null}
      </span>
    </>
  );
}

/**
 * Balance and ledger history; userId only for admins (a customer's route answers with its own wallet).
 * `children` goes between the balance and the history, with the live wallet (a withdrawal's available balance).
 */
export function WalletPanel({ initial, userId, children }: { initial: WalletView; userId?: string; children?: (wallet: Wallet) => ReactNode }) {
  const [page, setPage] = useState(1);
  const query = useLiveQuery({
    queryKey: ['wallet', userId ?? 'me', page],
    queryFn: () => fetchJson<WalletView>(`/data/wallet?page=${page}${userId ? `&user_id=${userId}` : ''}`),
    initialData: page === 1 ? initial : undefined,
    keepPrevious: true,
  });
  if (query.isPending) return <LoadingState label="Loading the wallet…" />;
  if (query.isError) return <ErrorState message={query.error.message} retry={() => void query.refetch()} />;
  const { wallet, history } = query.data;
  return (
    <div className="space-y-6">
      <Card>
        <p className="text-sm text-slate-600">Available balance</p>
        <p className="mt-1 text-3xl font-semibold tabular-nums text-slate-900" data-testid="wallet-balance">
          {naira(wallet.balance)}
        </p>
        <p className="mt-1 text-xs text-slate-500">Wallet {wallet.account_reference}</p>
        <PayInAccount wallet={wallet} />
      </Card>
      {children?.(wallet)}
      <Card>
        <CardHeader title="History" description="Every movement of money in and out of this wallet, newest first." />
        {history.entries.length === 0 ? (
          <EmptyState title="No movements yet" />
        ) : (
          <Table
            caption="Wallet history"
            rows={history.entries}
            rowKey={(e) => e.id}
            rowTestId={() => 'wallet-entry'}
            columns={[
              { header: 'When', className: 'text-slate-600 sm:whitespace-nowrap', cell: (e) => dateTime(e.created_at) },
              { header: 'What', primary: true, cell: (e) => KIND[e.kind] ?? e.kind },
              { header: 'Description', className: 'text-slate-700 [overflow-wrap:anywhere]', cell: (e) => <EntryDescription entry={e} /> },
              {
                header: 'Amount',
                align: 'right',
                className: 'font-medium tabular-nums sm:whitespace-nowrap',
                cell: (e) => <span className={e.amount < 0 ? 'text-rose-700' : 'text-emerald-700'}>{e.amount < 0 ? `−${naira(-e.amount)}` : `+${naira(e.amount)}`}</span>,
              },
            ]}
          />
        )}
        <PaginationControls
          page={history.pagination.currentPage}
          pageCount={history.pagination.pageCount}
          total={history.pagination.total}
          onPage={setPage}
          label="movements"
        />
      </Card>
    </div>
  );
}
