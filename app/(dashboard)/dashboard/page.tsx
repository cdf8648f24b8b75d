import { redirect } from 'next/navigation';
import { requireActor } from '@/lib/server/dashboard/actor';

export default async function DashboardHome() {
  const actor = await requireActor();
  redirect(actor.kind === 'admin' ? '/admin/transactions' : '/transactions');
}
