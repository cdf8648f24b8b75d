import type { Metadata } from 'next';
import { KeysAdmin } from '@/components/admin/keys-admin';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { requireAdmin } from '@/lib/server/dashboard/actor';
import { keysView } from '@/lib/server/dashboard/keys';

export const metadata: Metadata = { title: 'API keys' };

export default async function KeysPage() {
  const actor = await requireAdmin();
  const view = await keysView(actor);
  return (
    <>
      <PageHeader
        title="API keys"
        description="Your systems call the escrow API with the secret key. Roll it when someone who knew it leaves or it may have leaked: the new key is shown once, and the old one keeps working for the hours you choose."
      />
      {view.kind === 'ok' ? <KeysAdmin view={view.view} /> : <ErrorState message={view.kind === 'error' ? view.failure.message : 'Not found'} />}
    </>
  );
}
