import type { Metadata } from 'next';
import { AuditLog } from '@/components/admin/audit-log';
import { PageHeader } from '@/components/ui/card';
import { getDb } from '@/lib/server/db/client';
import { requireAdmin } from '@/lib/server/dashboard/actor';
import { auditFiltersOf, auditPage } from '@/lib/server/dashboard/audit';

export const metadata: Metadata = { title: 'Audit log' };

/** Admins and viewers read their own client's log only: the client comes from the session, never the URL. */
export default async function AuditLogPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requireAdmin();
  const filters = auditFiltersOf(await searchParams);
  const { entries, pagination } = await auditPage(await getDb(), actor.clientId, filters);
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every staff action on your marketplace, newest first: who did it, what, on what, when and from which address. Sign-ins, invitations, key rolls, setting changes, dispute verdicts, funding for a buyer and every other change an admin makes."
      />
      <AuditLog entries={entries} pagination={pagination} filters={{ action: filters.action, actor: filters.actor, from: filters.from, to: filters.to }} />
    </>
  );
}
