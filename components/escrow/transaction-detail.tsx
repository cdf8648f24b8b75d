'use client';

import Link from 'next/link';
import type { TransactionView } from '@/lib/contracts/dashboard';
import { lazyForm } from '../ui/lazy-form';

const FundWalletForm = lazyForm(() => import('../admin/fund-wallet-form').then((m) => m.FundWalletForm));
import { Card } from '../ui/card';
import { fetchJson } from '../ui/fetch-json';
import { invalidate, useLiveQuery } from '../live/live-query';
import { ErrorState } from '../ui/states';
import { MilestoneTimeline } from './milestone-timeline';
import { ProofLinks } from './proof-gallery';
import { IntegrationDetails } from './integration-details';
import { dateTime, naira } from './format';
import { feeTerms } from './money';
import { StatusBadge } from './status-badge';
import { TransactionEnding } from './lazy-escrow-parts';

/** Basis points as the percent the milestones' fees were priced at (100 = 1%). */
const feeRate = (basisPoints: number) => `${basisPoints / 100}%`;

const nameOf = (p: { user: { first_name: string; last_name: string } }) => `${p.user.first_name} ${p.user.last_name}`;

export function TransactionDetail({ initial }: { initial: TransactionView }) {
  const id = initial.transaction.id;
  const query = useLiveQuery({ queryKey: ['transaction', id], queryFn: () => fetchJson<TransactionView>(`/data/transactions/${id}`), initialData: initial });
  const refresh = () => {
    void invalidate(['transaction', id]);
    void invalidate(['wallet']);
  };
  const { transaction: t, viewer, logs, disputes, settlements, buyerBalance, proofTokens } = query.data;
  // Funding moves the buyer's fee share too: the sum says so, or it reads as more than the total.
  const fundedFeeShare = Math.round(t.milestones.filter((m) => m.is_milestone_funded).reduce((sum, m) => sum + feeTerms(m).buyerShare * 100, 0)) / 100;
  const you = viewer === 'admin' ? null : viewer;
  return (
    <ProofLinks tokens={proofTokens}>
      <div className="space-y-6">
        {query.isError ? <ErrorState title="Could not refresh this transaction" message={query.error.message} retry={() => void query.refetch()} /> : null}
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <p className="text-sm text-slate-600">
              <Link href={viewer === 'admin' ? '/admin/transactions' : '/transactions'} className="underline underline-offset-2">
                Transactions
              </Link>{' '}
              / {t.title}
            </p>
            <h1 className="mt-1 text-2xl font-semibold text-slate-900">{t.title}</h1>
            <p className="mt-1 text-slate-700">{t.description}</p>
          </div>
          <StatusBadge kind="transaction" status={t.status} />
        </div>
        <Card className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <p className="text-xs uppercase tracking-wide text-slate-500">Buyer</p>
            <p className="font-medium">
              {nameOf(t.buyer)}
              {you === 'buyer' ? <span className="ml-1 text-emerald-700">(you)</span> : null}
            </p>
          </div>
          <div>
            <p className="text-xs uppercase tracking-wide text-slate-500">Seller</p>
            <p className="font-medium">
              {nameOf(t.seller)}
              {you === 'seller' ? <span className="ml-1 text-emerald-700">(you)</span> : null}
            </p>
          </div>
          <div>
            <p className="text-xs uppercase tracking-wide text-slate-500">Total</p>
            <p className="font-medium">{naira(t.transaction_amount)}</p>
          </div>
          <div className="text-sm text-slate-700">
            <p data-testid="funded">
              Funded {naira(t.total_amount_funded)}
              {fundedFeeShare > 0
                ? ` (${naira(Math.round((t.total_amount_funded - fundedFeeShare) * 100) / 100)} and ${naira(fundedFeeShare)} of ${viewer === 'buyer' ? 'your' : "the buyer's"} fee share)`
                : null}
            </p>
            <p>Released {naira(t.total_amount_disbursed)}</p>
            <p>Refunded {naira(t.total_amount_refunded)}</p>
            <p data-testid="fee-rate">Fee rate {feeRate(t.fee_basis_points)}</p>
          </div>
          <p className="text-xs text-slate-500 sm:col-span-2 lg:col-span-4">
            Created {dateTime(t.created_at)} · updates every few seconds
          </p>
        </Card>
        {viewer === 'admin' ? (
          <Card>
            <p className="text-sm text-slate-700">
              {nameOf(t.buyer)}&apos;s wallet: <strong data-testid="buyer-balance">{buyerBalance === undefined ? '—' : naira(buyerBalance)}</strong>
            </p>
            {t.milestones.some((m) => m.allowed_actions.buyer.includes('fund')) ? (
              <div className="mt-3">
                <FundWalletForm userId={t.buyer.user_id} name={t.buyer.user.first_name} onDone={refresh} />
              </div>
            ) : null}
          </Card>
        ) : null}
        {viewer === 'admin' ? (
          <IntegrationDetails
            facts={[
              ['External reference', t.external_reference ?? 'None'],
              ['Fee rate for this transaction', `${feeRate(t.fee_basis_points)} (${t.fee_basis_points} basis points), within your fee cap`],
              ...t.milestones
                .filter((m) => Object.keys(m.metadata).length > 0)
                .map((m): [string, string] => [`Milestone ${m.position_in_transaction} metadata`, Object.entries(m.metadata).map(([k, v]) => `${k}: ${v}`).join(' · ')]),
            ]}
            metadata={t.metadata}
          />
        ) : null}
        <TransactionEnding transaction={t} viewer={viewer} onDone={refresh} />
        <section aria-labelledby="milestones-heading">
          <h2 id="milestones-heading" className="mb-4 text-lg font-semibold">
            Milestones
          </h2>
          <MilestoneTimeline milestones={t.milestones} currentId={t.current_milestone_id} viewer={viewer} logs={logs} disputes={disputes} settlements={settlements} buyerBalance={buyerBalance} onChanged={refresh} />
        </section>
      </div>
    </ProofLinks>
  );
}
