import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ClientDetail } from '@/components/operator/client-detail';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { Id } from '@/lib/contracts/common';
import { requireOperator } from '@/lib/server/dashboard/actor';
import { clientDetailView } from '@/lib/server/dashboard/operator';

export const metadata: Metadata = { title: 'Client' };

export default async function OperatorClientPage({ params }: { params: Promise<{ id: string }> }) {
  await requireOperator();
  const id = Id.safeParse((await params).id);
  if (!id.success) notFound();
  const view = await clientDetailView(id.data);
  if (view.kind === 'not_found') notFound();
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/operator/clients" className="text-emerald-800 underline-offset-2 hover:underline">
          ← All clients
        </Link>
      </p>
      {view.kind === 'ok' ? (
        <>
          <PageHeader title={view.view.client.name} />
          <ClientDetail view={view.view} />
        </>
      ) : (
        <ErrorState message={view.failure.message} />
      )}
    </>
  );
}
