import 'server-only';
import { and, eq } from 'drizzle-orm';
import { readDemoClient } from '../app-settings';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { ensureAccount } from '../dashboard/accounts';
import { DEMO_BUYER_EMAIL, DEMO_SELLER_EMAIL } from './demo';

/** The demo's sign-in details, shown in the README. Demo data only: never seed them on a real server. */
export const DEMO_DASHBOARD_ACCOUNTS = {
  admin: { email: 'admin@demo.escrowdesk.ng', password: 'demo-admin-pass', name: 'Demo Marketplace admin' },
  buyer: { email: DEMO_BUYER_EMAIL, password: 'demo-buyer-pass', name: 'Ada Obi' },
  seller: { email: DEMO_SELLER_EMAIL, password: 'demo-seller-pass', name: 'Tunde Balogun' },
  disputes: { email: 'disputes@demo.escrowdesk.ng', password: 'demo-disputes-pass', name: 'Demo dispute team' },
} as const;

/**
 * Idempotent, on every start with the demo on: an admin of the demo client, a dispute-team member, and
 * dashboard accounts for the demo buyer and seller. Accounts that already exist (a changed password included) are left alone.
 */
export async function seedDashboardAccounts(db: Db, now: Date): Promise<string[]> {
  const demo = await readDemoClient(db);
  if (!demo) return [];
  const created: string[] = [];
  const { admin, buyer, seller, disputes } = DEMO_DASHBOARD_ACCOUNTS;
  const adminResult = await ensureAccount(db, { ...admin, role: 'admin', clientId: demo.client_id }, now);
  if (adminResult.created) created.push(admin.email);
  const teamResult = await ensureAccount(db, { ...disputes, role: 'dispute_team', clientId: demo.client_id }, now);
  if (teamResult.created) created.push(disputes.email);
  for (const person of [buyer, seller]) {
    const [user] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.clientId, demo.client_id), eq(users.emailLower, person.email)))
      .limit(1);
    if (!user) continue;
    const result = await ensureAccount(db, { ...person, role: 'customer', clientId: demo.client_id, escrowUserId: user.id }, now);
    if (result.created) created.push(person.email);
  }
  return created;
}
