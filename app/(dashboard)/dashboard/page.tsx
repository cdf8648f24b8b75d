import { redirect } from 'next/navigation';
import { homeOf, requireActor } from '@/lib/server/dashboard/actor';

export default async function DashboardHome() {
  redirect(homeOf(await requireActor()));
}
