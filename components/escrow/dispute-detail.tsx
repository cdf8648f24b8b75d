'use client';

import Link from 'next/link';
import type { DisputeView } from '@/lib/contracts/dashboard';
import { Card, CardHeader } from '../ui/card';
import { fetchJson } from '../ui/fetch-json';
import { invalidate, useLiveQuery } from '../live/live-query';
import { ErrorState } from '../ui/states';
import { DeadlineCountdown } from './deadline-countdown';
import { DisputeActions } from './lazy-escrow-parts';
import { DisputeEvidence } from './dispute-evidence';
import { DisputeOutcome } from './dispute-outcome';
import { DisputeThread } from './dispute-thread';
import { MilestoneLogList } from './milestone-log';
import { ProofLinks } from './proof-gallery';
import { dateTime, naira } from './format';
import { StatusBadge } from './status-badge';

/** Where the negotiation stands, in words: never a stale proposal once it was rejected or mediation ended. */
function onTheTable(d: DisputeView['dispute'], viewer: DisputeView['viewer']): string {
  const you = (party: 'buyer' | 'seller') => (viewer === party ? 'you' : `the ${party}`);
  if (d.dispute_amount_status === 'APPROVED') return `${naira(d.dispute_amount)}, agreed`;
  if (d.status !== 'INTRA_PARTY_MEDIATION') return 'None: mediation ended without an agreed amount';
  if (d.dispute_amount_status === 'COUNTER_OFFERED') return `${naira(d.counter_offer_amount ?? 0)}, offered by ${you('buyer')}; waiting for ${you('seller')}`;
  if (d.dispute_amount_status === 'SUBMITTED') return `${naira(d.dispute_amount)}, proposed by ${you('seller')}; waiting for ${you('buyer')}`;
  return d.proposals.length ? `None: the last amount was rejected; waiting for ${you('seller')} to propose again` : `None yet: waiting for ${you('seller')} to propose`;
}

export function DisputeDetail({ initial }: { initial: DisputeView }) {
  const id = initial.dispute.id;
  const query = useLiveQuery({ queryKey: ['dispute', id], queryFn: () => fetchJson<DisputeView>(`/data/disputes/${id}`), initialData: initial });
  const refresh = () => {
    void invalidate(['dispute', id]);
    void invalidate(['transaction']);
  };
  const { dispute: d, viewer, transactionId, proofTokens } = query.data;
  return (
    <ProofLinks tokens={proofTokens}>
      <div className="space-y-6">
        {query.isError ? <ErrorState title="Could not refresh this dispute" message={query.error.message} retry={() => void query.refetch()} /> : null}
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <p className="text-sm text-slate-600">
              <Link href={`/transactions/${transactionId}`} className="underline underline-offset-2">
                {d.milestone.transaction.title}
              </Link>{' '}
              / {d.milestone.title}
            </p>
            <h1 className="mt-1 text-2xl font-semibold text-slate-900">Dispute {d.dispute_code}</h1>
          </div>
          <StatusBadge kind="dispute" status={d.status} />
        </div>
        <DisputeOutcome dispute={d} viewer={viewer === 'admin' ? 'staff' : viewer} />
        <Card className="grid gap-4 sm:grid-cols-3">
          <div>
            <p className="text-xs uppercase tracking-wide text-slate-500">Held in escrow</p>
            <p className="font-medium">{naira(d.milestone.milestone_escrow.balance)}</p>
          </div>
          <div>
            <p className="text-xs uppercase tracking-wide text-slate-500">Milestone amount</p>
            <p className="font-medium">{naira(d.milestone.amount)}</p>
          </div>
          <div>
            <p className="text-xs uppercase tracking-wide text-slate-500">Amount on the table</p>
            <p className="font-medium" data-testid="amount-on-the-table">
              {onTheTable(d, viewer)}
            </p>
          </div>
          {d.deadlines.length ? (
            <div className="space-y-2 sm:col-span-3">
              {d.deadlines.map((deadline) => (
                <DeadlineCountdown key={deadline.name} deadline={deadline} viewer={viewer === 'admin' ? 'staff' : viewer} />
              ))}
            </div>
          ) : null}
        </Card>
        <Card>
          <CardHeader title="Negotiation" description="The seller proposes how much it should receive; the buyer approves or rejects." />
          <DisputeThread dispute={d} viewer={viewer === 'admin' ? 'staff' : viewer} />
          <div className="mt-6 border-t pt-4">
            <DisputeActions dispute={d} viewer={viewer} onDone={refresh} />
          </div>
        </Card>
        {d.escalated_at || d.evidence.length ? (
          <Card>
            <CardHeader
              title="Evidence"
              description={
                d.escalated_at
                  ? `Escalated ${d.escalated_by === 'system' ? 'automatically when mediation ended' : `by the ${d.escalated_by}`} on ${dateTime(d.escalated_at)}.`
                  : undefined
              }
            />
            <DisputeEvidence dispute={d} />
          </Card>
        ) : null}
        <Card>
          <CardHeader title="Milestone log" level={2} />
          <MilestoneLogList logs={d.milestone.milestone_logs} viewer={viewer} />
        </Card>
      </div>
    </ProofLinks>
  );
}
