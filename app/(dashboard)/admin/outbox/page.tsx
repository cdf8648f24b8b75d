import type { Metadata } from 'next';
import { OutboxList } from '@/components/admin/outbox-list';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { requireAdmin } from '@/lib/server/dashboard/actor';
import { escrowFor } from '@/lib/server/escrow-client';

export const metadata: Metadata = { title: 'Outbox' };

const PAGE_SIZE = 20;

export default async function OutboxPage({ searchParams }: { searchParams: Promise<{ page?: string }> }) {
  const actor = await requireAdmin();
  const requested = Number((await searchParams).page);
  const page = Number.isInteger(requested) && requested >= 1 ? requested : 1;
  const list = await escrowFor(actor).call('GET /emails', { query: { page, limit: PAGE_SIZE, sort: 'DESC' } });
  return (
    <>
      <PageHeader
        title="Outbox"
        description="Every email sent to your customers, newest first. Until the people who run this Escrow Desk server connect it to a mail server, nothing is sent and each one is kept here: ask them if your emails stay kept. An email whose send was interrupted is marked unknown and sent again only if you resend it."
      />
      {list.ok ? <OutboxList emails={list.data.emails} pagination={list.data.pagination} /> : <ErrorState message={list.message} />}
    </>
  );
}
