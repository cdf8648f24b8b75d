import type { Metadata } from 'next';
import { AuditLog } from '@/components/admin/audit-log';
import { PageHeader } from '@/components/ui/card';
import { getDb } from '@/lib/server/db/client';
import { requireOperator } from '@/lib/server/dashboard/actor';
import { auditFiltersOf, auditPage } from '@/lib/server/dashboard/audit';

export const metadata: Metadata = { title: 'Audit log' };

/** Every client's staff actions and the service's own (operators, the dispute team), newest first. */
export default async function OperatorAuditLogPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireOperator();
  const filters = auditFiltersOf(await searchParams);
  const { entries, pagination } = await auditPage(await getDb(), null, filters);
  return (
    <>
      <PageHeader title="Audit log" description="Every staff action on this Escrow Desk, of every client and of the service's own staff: who, what, when and from which address." />
      <AuditLog entries={entries} pagination={pagination} basePath="/operator/audit" linkTargets={false} filters={{ action: filters.action, actor: filters.actor, from: filters.from, to: filters.to }} />
    </>
  );
}
