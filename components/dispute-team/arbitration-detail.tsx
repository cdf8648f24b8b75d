'use client';

import Link from 'next/link';
import type { ArbitrationView } from '@/lib/contracts/dashboard-disputes';
import { takesVerdict } from '@/lib/escrow/dispute-machine';
import { DeadlineCountdown } from '../escrow/deadline-countdown';
import { DisputeEvidence } from '../escrow/dispute-evidence';
import { DisputeOutcome } from '../escrow/dispute-outcome';
import { DisputeThread } from '../escrow/dispute-thread';
import { MilestoneLogList } from '../escrow/milestone-log';
import { dateTime, naira } from '../escrow/format';
import { ProofGallery, ProofLinks } from '../escrow/proof-gallery';
import { StatusBadge } from '../escrow/status-badge';
import { Card, CardHeader } from '../ui/card';
import { fetchJson } from '../ui/fetch-json';
import { invalidate, useLiveQuery } from '../live/live-query';
import { ErrorState } from '../ui/states';
import { lazyForm } from '../ui/lazy-form';

const VerdictForm = lazyForm(() => import('./verdict-form').then((m) => m.VerdictForm));

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <p className="text-xs uppercase tracking-wide text-slate-500">{label}</p>
      <p className="font-medium">{value}</p>
    </div>
  );
}

/** One party's proofs of the disputed milestone, opened through /proofs against this dispute. */
function MilestoneProofs({ title, label, urls, disputeId }: { title: string; label: string; urls: string[]; disputeId: string }) {
  return (
    <section aria-label={title} className="rounded-lg border bg-slate-50 p-4">
      <h3 className="font-semibold text-slate-900">{title}</h3>
      {urls.length === 0 ? <p className="mt-3 text-sm text-slate-600">None sent.</p> : <ProofGallery urls={urls} label={label} disputeId={disputeId} />}
    </section>
  );
}

export function ArbitrationDetail({ initial }: { initial: ArbitrationView }) {
  const id = initial.dispute.id;
  const query = useLiveQuery({ queryKey: ['arbitration', id], queryFn: () => fetchJson<ArbitrationView>(`/data/dispute-team/disputes/${id}`), initialData: initial });
  const refresh = () => {
    void invalidate(['arbitration', id]);
    void invalidate(['arbitration-queue']);
  };
  const d = query.data.dispute;
  const names = { buyer: `${d.buyer.user.first_name} ${d.buyer.user.last_name}`, seller: `${d.seller.user.first_name} ${d.seller.user.last_name}` };
  return (
    <ProofLinks tokens={query.data.proof_tokens}>
      <div className="space-y-6">
        {query.isError ? <ErrorState title="Could not refresh this dispute" message={query.error.message} retry={() => void query.refetch()} /> : null}
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <p className="text-sm text-slate-600">
              <Link href="/dispute-team" className="underline underline-offset-2">
                Arbitration queue
              </Link>{' '}
              / {d.milestone.transaction.title} / {d.milestone.title}
            </p>
            <h1 className="mt-1 text-2xl font-semibold text-slate-900">Dispute {d.dispute_code}</h1>
          </div>
          <StatusBadge kind="dispute" status={d.status} />
        </div>
        <DisputeOutcome dispute={d} />
        <Card className="grid gap-4 sm:grid-cols-4">
          <Fact label="Held in escrow" value={naira(d.milestone.milestone_escrow.balance)} />
          <Fact label="Seller may receive up to" value={naira(d.max_dispute_amount)} />
          <Fact label="Buyer" value={names.buyer} />
          <Fact label="Seller" value={names.seller} />
          <div className="sm:col-span-4 text-sm text-slate-700">
            <span className="font-medium">{d.opened_by === 'system' ? 'Opened by the service:' : d.opened_by === 'buyer' ? 'Buyer’s complaint:' : 'Seller’s complaint:'}</span> {d.description}
            {d.escalated_at ? (
              <span className="block text-slate-500">
                Escalated {d.escalated_by === 'system' ? 'automatically' : `by the ${d.escalated_by}`} on {dateTime(d.escalated_at)}
                {d.evidence_submission_end_date ? `; evidence closed ${dateTime(d.evidence_submission_end_date)}` : ''}.
              </span>
            ) : null}
          </div>
        </Card>
        <Card>
          <CardHeader title="Delivery and return" description="What each party sent as proof before the dispute." />
          {d.milestone.delivery_rejection_reason ? (
            <p className="mb-4 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-900">
              <span className="font-medium">Buyer&apos;s reason for rejecting:</span> {d.milestone.delivery_rejection_reason}
            </p>
          ) : null}
          <div className="grid gap-4 md:grid-cols-2">
            <MilestoneProofs title="Seller's proof of delivery" label="Proof of delivery" urls={d.milestone.proofs_of_completion} disputeId={d.id} />
            <MilestoneProofs title="Buyer's proof of return" label="Proof of return" urls={d.milestone.proofs_of_return} disputeId={d.id} />
          </div>
        </Card>
        <Card>
          <CardHeader title="Evidence" description="Both parties' submissions, side by side." />
          <DisputeEvidence dispute={d} names={names} />
        </Card>
        {takesVerdict(d.status) ? (
          <Card>
            <CardHeader title="Verdict" description="Split what is held between the parties. The verdict is final and both parties see the reason." />
            {d.deadlines.map((deadline) => (
              <DeadlineCountdown key={deadline.name} deadline={deadline} />
            ))}
            <VerdictForm disputeId={d.id} max={d.max_dispute_amount} held={d.milestone.milestone_escrow.balance} milestone={d.milestone} onDone={refresh} />
          </Card>
        ) : null}
        <div className="grid gap-6 lg:grid-cols-2">
          <Card>
            <CardHeader title="Negotiation before escalation" level={2} />
            <DisputeThread dispute={d} />
          </Card>
          <Card>
            <CardHeader title="Milestone log" level={2} />
            <MilestoneLogList logs={d.milestone.milestone_logs} />
          </Card>
        </div>
      </div>
    </ProofLinks>
  );
}
