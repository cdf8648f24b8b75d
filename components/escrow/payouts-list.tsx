'use client';

import Link from 'next/link';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { PayoutRow, PayoutsView } from '@/lib/contracts/dashboard-payouts';
import { Card, CardHeader } from '../ui/card';
import { fetchJson } from '../ui/fetch-json';
import { PaginationControls } from '../ui/pagination';
import { invalidate, useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { STATEMENT_KIND } from './statement-kinds';
import { dateTime, day, naira } from './format';
import { InlineIntegrationDetails } from './integration-details';
import { StatusBadge } from './status-badge';

const onItsWay = (p: { status: string }) => p.status === 'PENDING' || p.status === 'PROCESSING';

/** While a payout is on its way the list looks again every few seconds; otherwise at the usual pace. */
export const payoutPolling = (view: PayoutsView | undefined) => (view?.payouts.some(onItsWay) ? 4_000 : 15_000);

/**
 * A payout's outcome moves money too (a failure or a return puts it back in the wallet): when a status on
 * the list changes, the wallet's balance and history are fetched again.
 */
export function useWalletFollowsPayouts(view: PayoutsView | undefined) {
  const seen = useRef<string | null>(null);
  const signature = view ? view.payouts.map((p) => `${p.id}:${p.status}`).join(',') : null;
  useEffect(() => {
    if (signature === null) return;
    if (seen.current !== null && seen.current !== signature) void invalidate(['wallet']);
    seen.current = signature;
  }, [signature]);
}

/** One payout: amount and status, the account it goes to, why it failed, and when each step happened. */
export function PayoutItem({ payout, customerHref, actions, userIsAdminView = false }: { payout: PayoutRow; customerHref?: string; actions?: ReactNode; userIsAdminView?: boolean }) {
  const account = payout.bank_account;
  const steps: Array<[string, string | null]> = [
    ['Requested', payout.created_at],
    ['Paid', payout.paid_at],
    ['Failed', payout.failed_at],
    ['Returned', payout.reversed_at],
  ];
  return (
    <li className="border-b py-3 last:border-0" data-testid="payout" data-payout-status={payout.status}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex flex-wrap items-center gap-2">
          <span className="text-base font-semibold tabular-nums text-slate-900" data-testid="payout-amount">
            {naira(payout.amount)}
          </span>
          <StatusBadge kind="payout" status={payout.status} />
        </p>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      {payout.customer !== undefined ? (
        <p className="mt-1 min-w-0 break-words text-sm">
          {customerHref ? (
            <Link href={customerHref} className="font-medium text-emerald-800 underline-offset-2 hover:underline">
              {payout.customer}
            </Link>
          ) : (
            <span className="font-medium">{payout.customer}</span>
          )}
        </p>
      ) : null}
      <p className="mt-1 text-sm text-slate-700 break-words">
        To {account.account_name} · {account.bank_name} · <span className="font-mono">{account.account_number}</span>
      </p>
      <PayoutSources sources={payout.sources} />
      {/* Metadata is the integrator's (docs/decisions.md §19): its staff see it, the customer does not. */}
      {customerHref !== undefined || userIsAdminView ? <InlineIntegrationDetails metadata={payout.metadata} /> : null}
      {payout.failure_reason ? (
        <p className="mt-1 break-words text-sm text-rose-800" data-testid="payout-failure-reason">
          {payout.status === 'REVERSED' ? 'Returned: ' : 'Failed: '}
          {payout.failure_reason}
        </p>
      ) : null}
      <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-slate-600">
        {steps
          .filter(([, at]) => at)
          .map(([label, at]) => (
            <div key={label}>
              <dt className="inline">{label} </dt>
              <dd className="inline">
                <time dateTime={at!}>{dateTime(at!)}</time>
              </dd>
            </div>
          ))}
      </dl>
      <p className="mt-0.5 text-xs text-slate-500 [overflow-wrap:anywhere]">Reference {payout.reference}</p>
    </li>
  );
}

/** The wallet's credits a payout paid out, oldest first (docs/decisions.md §18), each with its deal when it has one. */
function PayoutSources({ sources }: { sources: PayoutRow['sources'] }) {
  if (sources.length === 0) return null;
  return (
    <div className="mt-1 text-sm text-slate-700" data-testid="payout-sources">
      <p className="text-xs font-medium text-slate-500">Paid out from</p>
      <ul className="mt-0.5 space-y-0.5">
        {sources.map((source, i) => (
          <li key={`${source.at}-${i}`} className="flex flex-wrap items-baseline gap-x-2" data-testid="payout-source" data-kind={source.kind}>
            <span>{STATEMENT_KIND[source.kind] ?? source.kind}</span>
            <span className="font-medium tabular-nums" data-testid="payout-source-amount">
              {naira(source.amount)}
            </span>
            <span className="text-xs text-slate-500">
              <time dateTime={source.at}>{day(source.at)}</time>
            </span>
            {source.transaction_id ? (
              <Link href={`/transactions/${source.transaction_id}`} className="text-xs font-medium text-emerald-800 underline underline-offset-2">
                View the deal
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A customer's payouts (its own on the Wallet page; userId for an admin's view of one customer). */
export function PayoutsList({ initial, userId, title = 'Withdrawals' }: { initial: PayoutsView; userId?: string; title?: string }) {
  const [page, setPage] = useState(1);
  const query = useLiveQuery({
    queryKey: ['payouts', userId ?? 'me', page],
    queryFn: () => fetchJson<PayoutsView>(`/data/payouts?${new URLSearchParams({ page: String(page), ...(userId ? { user_id: userId } : {}) })}`),
    initialData: page === 1 ? initial : undefined,
    keepPrevious: true,
    refetchInterval: payoutPolling,
  });
  useWalletFollowsPayouts(query.data);
  return (
    <Card aria-labelledby="payouts-heading">
      <CardHeader title={<span id="payouts-heading">{title}</span>} description="Money sent from the wallet to a bank account, newest first." />
      {query.isPending ? (
        <LoadingState label="Loading withdrawals…" />
      ) : query.isError ? (
        <ErrorState message={query.error.message} retry={() => void query.refetch()} />
      ) : query.data.payouts.length === 0 ? (
        <EmptyState title="No withdrawals yet" />
      ) : (
        <>
          <ul aria-label={title}>
            {query.data.payouts.map((p) => (
              <PayoutItem key={p.id} payout={p} userIsAdminView={userId !== undefined} />
            ))}
          </ul>
          <PaginationControls
            page={query.data.pagination.currentPage}
            pageCount={query.data.pagination.pageCount}
            total={query.data.pagination.total}
            onPage={setPage}
            label="withdrawals"
          />
        </>
      )}
    </Card>
  );
}
