'use client';

import Link from 'next/link';
import { useState } from 'react';
import type { ArbitrationQueueView } from '@/lib/contracts/dashboard-disputes';
import { dateTime, naira } from '../escrow/money';
import { Card } from '../ui/card';
import { fetchJson } from '../ui/fetch-json';
import { PaginationControls } from '../ui/pagination';
import { useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState } from '../ui/states';

/** A declined arbitration's deadline: past it the buyer is refunded whatever the team meant to decide. */
const refundDueOf = (d: ArbitrationQueueView['disputes'][number]) => d.deadlines.find((x) => x.name === 'declined_refund')?.due_at;

export function ArbitrationQueue({ initial }: { initial: ArbitrationQueueView }) {
  const [page, setPage] = useState(1);
  const query = useLiveQuery({
    queryKey: ['arbitration-queue', page],
    queryFn: () => fetchJson<ArbitrationQueueView>(`/data/dispute-team/queue?page=${page}`),
    initialData: page === 1 ? initial : undefined,
    keepPrevious: true,
  });
  if (query.isError && !query.data) return <ErrorState message={query.error.message} retry={() => void query.refetch()} />;
  const data = query.data ?? initial;
  if (data.disputes.length === 0) {
    return (
      <EmptyState title="Nothing waiting for a verdict">
        Disputes appear here when their evidence window closes: with evidence from both sides, or from neither (arbitration declined, which you may still decide before the buyer is refunded).
      </EmptyState>
    );
  }
  return (
    <Card>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="py-2 pr-4">Dispute</th>
              <th className="py-2 pr-4">Marketplace</th>
              <th className="py-2 pr-4">Seller may receive up to</th>
              <th className="py-2 pr-4">Evidence closed</th>
              <th className="py-2 pr-4">Buyer refunded unless decided by</th>
              <th className="py-2 pr-4">Opened</th>
            </tr>
          </thead>
          <tbody>
            {data.disputes.map((d) => (
              <tr key={d.id} className="border-t" data-testid="queue-row">
                <td className="py-2 pr-4">
                  <Link href={`/dispute-team/${d.id}`} className="font-medium text-emerald-800 underline underline-offset-2">
                    {d.dispute_code}
                  </Link>
                  <p className="max-w-xs truncate text-xs text-slate-600">{d.description}</p>
                </td>
                <td className="py-2 pr-4">{d.client_name}</td>
                <td className="py-2 pr-4">{naira(d.max_dispute_amount)}</td>
                <td className="py-2 pr-4">{d.evidence_submission_end_date ? dateTime(d.evidence_submission_end_date) : '—'}</td>
                <td className="py-2 pr-4">{refundDueOf(d) ? dateTime(refundDueOf(d)!) : '—'}</td>
                <td className="py-2 pr-4">{dateTime(d.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <PaginationControls page={data.pagination.currentPage} pageCount={data.pagination.pageCount} total={data.pagination.total} onPage={setPage} label="disputes" />
    </Card>
  );
}
