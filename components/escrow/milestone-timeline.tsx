'use client';

import Link from 'next/link';
import type { MilestoneInTransaction, MilestoneLog, Viewer } from '@/lib/contracts/dashboard';
import { cn } from '../ui/cn';
import { DeadlineCountdown } from './deadline-countdown';
import { MilestoneActions, MilestoneExtension, MilestonePartial } from './lazy-escrow-parts';
import { mediationWords } from './mediation-words';
import { MilestoneLogList } from './milestone-log';
import { dateTime, day, naira } from './format';
import { feeChargedOn, feePayer, settlementSplit } from './money';
import { ProofGallery } from './proof-gallery';
import { StatusBadge } from './status-badge';

const DOT: Record<string, string> = {
  COMPLETED: 'bg-emerald-600',
  DISPUTE_RESOLVED: 'bg-emerald-600',
  DELIVERY_RETURN_APPROVED: 'bg-emerald-600',
  IN_DISPUTE: 'bg-violet-600',
  DELIVERY_RETURN_REJECTED: 'bg-rose-600',
  PENDING_FUNDING: 'bg-slate-300',
};

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="font-medium text-slate-900">{value}</dd>
    </div>
  );
}

/**
 * Why a milestone moved on by itself: the newest automatic log line (a lapsed deadline, logged by the
 * service as `system`), shown while it is still the milestone's latest step.
 */
function LapseNote({ logs, status, viewer }: { logs: MilestoneLog[]; status: string; viewer: Viewer }) {
  const last = logs.at(-1);
  if (!last?.is_automatic) return null;
  const title = status === 'COMPLETED' ? 'Accepted automatically' : status === 'DELIVERY_RETURN_APPROVED' ? 'Return approved automatically' : 'Moved on automatically';
  return (
    <div role="note" data-testid="lapse-note" className="mt-4 rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-950">
      <p className="font-medium">{title}</p>
      <p>
        {mediationWords(last.log_message, viewer).replace(/\.$/, '')} (<time dateTime={last.created_at}>{dateTime(last.created_at)}</time>).
      </p>
    </div>
  );
}

/**
 * The fee as agreed until money leaves escrow; then the fee actually charged: on a release its share of what the
 * seller was paid (all of it unless part was refunded or only part accepted, docs/decisions.md §17), none on a
 * refund, and on a settled dispute its share of the part paid to the seller (the ledger's own rule).
 */
function FeeFact({ milestone: m, viewer, paidToSeller }: { milestone: MilestoneInTransaction; viewer: Viewer; paidToSeller?: number }) {
  const charged =
    m.status === 'COMPLETED'
      ? m.amount_released !== null && m.amount_released !== m.amount
        ? feeChargedOn(m.amount_released, m).fee
        : m.milestone_fee
      : m.status === 'DELIVERY_RETURN_APPROVED' || m.status === 'CANCELED' || m.status === 'REFUNDED'
        ? 0
        : m.status === 'DISPUTE_RESOLVED' && paidToSeller !== undefined
          ? settlementSplit(paidToSeller, m).fee
          : null;
  if (charged === null) return <Fact label={`Fee (${m.rate_used}%)`} value={`${naira(m.milestone_fee)}, paid by ${feePayer(m.commission_payer, viewer)}`} />;
  return <Fact label="Fee charged" value={charged === m.milestone_fee ? naira(charged) : `${naira(charged)} (of ${naira(m.milestone_fee)} agreed)`} />;
}

export function MilestoneTimeline({
  milestones,
  currentId,
  viewer,
  logs,
  disputes,
  settlements = {},
  buyerBalance,
  onChanged,
}: {
  milestones: MilestoneInTransaction[];
  currentId: string;
  viewer: Viewer;
  logs: Record<string, MilestoneLog[]>;
  disputes: Record<string, string>;
  settlements?: Record<string, number>;
  /** The buyer's wallet, for its funding dialog (admins and the buyer). */
  buyerBalance?: number;
  onChanged: () => void;
}) {
  return (
    <ol className="relative space-y-6 border-l-2 border-slate-200 pl-6" aria-label="Milestones">
      {milestones.map((m) => {
        const current = m.id === currentId;
        return (
          <li key={m.id} className="relative" data-testid={`milestone-${m.position_in_transaction}`} aria-current={current ? 'step' : undefined}>
            <span aria-hidden className={cn('absolute -left-[33px] top-5 h-4 w-4 rounded-full ring-4 ring-slate-50', DOT[m.status] ?? 'bg-amber-500')} />
            <article className={cn('rounded-lg border bg-white p-5 shadow-sm', current && 'border-emerald-300 ring-1 ring-emerald-200')}>
              <header className="flex flex-wrap items-start justify-between gap-2">
                <div>
                  <p className="text-xs font-medium uppercase tracking-wide text-slate-500">
                    Milestone {m.position_in_transaction}
                    {current ? ' · current' : ''}
                  </p>
                  <h3 className="text-lg font-semibold text-slate-900">{m.title}</h3>
                </div>
                <StatusBadge kind="milestone" status={m.status} />
              </header>
              <p className="mt-1 text-sm text-slate-700">{m.description}</p>
              <dl className="mt-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
                <Fact label="Amount" value={naira(m.amount)} />
                <FeeFact milestone={m} viewer={viewer} paidToSeller={settlements[m.id]} />
                <Fact label="Escrow held" value={naira(m.milestone_escrow.balance)} />
                <Fact label="Due" value={day(m.due_date)} />
              </dl>
              {m.deadlines.length > 0 ? (
                <div className="mt-4 space-y-2">
                  {m.deadlines.map((d) => (
                    <DeadlineCountdown key={d.name} deadline={d} viewer={viewer === 'admin' ? 'staff' : viewer} />
                  ))}
                </div>
              ) : null}
              <LapseNote logs={logs[m.id] ?? []} status={m.status} viewer={viewer} />
              {m.delivery_rejection_reason ? (
                <p className="mt-4 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-900">
                  <span className="font-medium">Buyer&apos;s reason for rejecting:</span> {m.delivery_rejection_reason}
                </p>
              ) : null}
              {m.proofs_of_completion.length + m.proofs_of_return.length > 0 ? (
                <div className="mt-4 grid gap-4 sm:grid-cols-2">
                  <ProofGallery title="Proof of delivery" label="Proof of delivery" urls={m.proofs_of_completion} milestoneId={m.id} />
                  <ProofGallery title="Proof of return" label="Proof of return" urls={m.proofs_of_return} milestoneId={m.id} />
                </div>
              ) : null}
              {disputes[m.id] ? (
                <p className="mt-4 text-sm">
                  <Link href={`/disputes/${disputes[m.id]}`} className="font-medium text-violet-800 underline underline-offset-2">
                    Open the dispute
                  </Link>
                </p>
              ) : null}
              <div className="mt-4">
                <MilestoneActions milestone={m} viewer={viewer} buyerBalance={buyerBalance} onDone={onChanged} />
              </div>
              {m.partial_acceptance || m.amount_refunded > 0 ? <MilestonePartial milestone={m} viewer={viewer} onDone={onChanged} /> : null}
              <MilestoneExtension milestone={m} viewer={viewer} onDone={onChanged} />
              <details className="mt-4 border-t pt-3" open={current}>
                <summary className="cursor-pointer text-sm font-medium text-slate-700">Milestone log</summary>
                <div className="mt-2">
                  <MilestoneLogList logs={logs[m.id] ?? []} viewer={viewer} />
                </div>
              </details>
            </article>
          </li>
        );
      })}
    </ol>
  );
}
