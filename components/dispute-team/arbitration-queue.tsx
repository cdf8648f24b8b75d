'use client';

import Link from 'next/link';
import { useState } from 'react';
import type { ArbitrationQueueView } from '@/lib/contracts/dashboard-disputes';
import { dateTime, naira } from '../escrow/format';
import { Card } from '../ui/card';
import { fetchJson } from '../ui/fetch-json';
import { PaginationControls } from '../ui/pagination';
import { useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState } from '../ui/states';
import { Table, type Column } from '../ui/table';

/** A declined arbitration's deadline: past it the buyer is refunded whatever the team meant to decide. */
const refundDueOf = (d: ArbitrationQueueView['disputes'][number]) => d.deadlines.find((x) => x.name === 'declined_refund')?.due_at;

const COLUMNS: Column<ArbitrationQueueView['disputes'][number]>[] = [
  {
    header: 'Dispute',
    primary: true,
    cell: (d) => (
      <>
        <Link href={`/dispute-team/${d.id}`} className="font-medium text-emerald-800 underline underline-offset-2">
          {d.dispute_code}
        </Link>
        <p className="truncate font-normal text-xs text-slate-600 sm:max-w-xs">{d.description}</p>
      </>
    ),
  },
  { header: 'Marketplace', cell: (d) => d.client_name },
  { header: 'Seller may receive up to', className: 'tabular-nums sm:whitespace-nowrap', cell: (d) => naira(d.max_dispute_amount) },
  { header: 'Evidence closed', cell: (d) => (d.evidence_submission_end_date ? dateTime(d.evidence_submission_end_date) : '—') },
  { header: 'Buyer refunded unless decided by', cell: (d) => (refundDueOf(d) ? dateTime(refundDueOf(d)!) : '—') },
  { header: 'Opened', cell: (d) => dateTime(d.created_at) },
];

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
      <Table caption="Disputes waiting for a verdict" rows={data.disputes} rowKey={(d) => d.id} rowTestId={() => 'queue-row'} columns={COLUMNS} />
      <PaginationControls page={data.pagination.currentPage} pageCount={data.pagination.pageCount} total={data.pagination.total} onPage={setPage} label="disputes" />
    </Card>
  );
}
