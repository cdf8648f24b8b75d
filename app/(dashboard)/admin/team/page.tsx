import type { Metadata } from 'next';
import { TeamAdmin } from '@/components/admin/team-admin';
import { PageHeader } from '@/components/ui/card';
import { getDb } from '@/lib/server/db/client';
import { requireAdmin } from '@/lib/server/dashboard/actor';
import { staffOf } from '@/lib/server/dashboard/staff';

export const metadata: Metadata = { title: 'Team' };

export default async function TeamPage() {
  const actor = await requireAdmin();
  const members = await staffOf(await getDb(), actor.clientId, new Date());
  return (
    <>
      <PageHeader title="Team" description="The people who run this marketplace's escrow: admins change things, viewers see everything and change nothing." />
      <TeamAdmin view={{ members, me: actor.accountId, canManage: !actor.readOnly }} />
    </>
  );
}
