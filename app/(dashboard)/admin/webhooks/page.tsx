import type { Metadata } from 'next';
import { WebhooksAdmin } from '@/components/admin/webhooks-admin';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { requireAdmin } from '@/lib/server/dashboard/actor';
import { webhooksView } from '@/lib/server/dashboard/webhooks';

export const metadata: Metadata = { title: 'Webhooks' };

export default async function WebhooksPage() {
  const actor = await requireAdmin();
  const view = await webhooksView(actor);
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Endpoints your systems receive every event at, signed with their secret. Each delivery is retried for 3 days until the endpoint answers 2xx; resend one to send it again now."
      />
      {view.kind === 'ok' ? <WebhooksAdmin initial={view.view} /> : <ErrorState message={view.kind === 'error' ? view.failure.message : 'Not found'} />}
    </>
  );
}
