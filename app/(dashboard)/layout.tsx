import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import { AppHeader } from '@/components/shell/app-header';
import { ClientClockProvider } from '@/components/ui/client-clock';
import { requireActor, type Actor } from '@/lib/server/dashboard/actor';
import { clientClockOffset } from '@/lib/server/dashboard/client-clock';

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const actor = await requireActor();
  const links = navigationOf(actor);
  // Countdowns count against the client's clock (a sandbox's test clock); staff without a client use real time.
  const offsetMs = 'clientId' in actor && actor.clientId ? await clientClockOffset(actor.clientId) : 0;
  const role = { operator: 'Operator', admin: actor.kind === 'admin' && actor.readOnly ? 'Viewer' : 'Admin', dispute_team: 'Dispute team', customer: 'Customer' }[actor.kind];
  return (
    <Providers>
      <ClientClockProvider offsetMs={offsetMs}>
        <AppHeader links={links} name={actor.name} role={role} bell={'clientId' in actor} />
        <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
          {actor.kind === 'admin' && actor.readOnly ? (
            <p className="mb-6 rounded-md border border-violet-200 bg-violet-50 px-3 py-2 text-sm text-violet-900" data-testid="read-only-note">
              You have read-only access: you see everything an admin sees, and an admin makes the changes.
            </p>
          ) : null}
          {children}
        </main>
      </ClientClockProvider>
    </Providers>
  );
}

function navigationOf(actor: Actor): Array<{ href: string; label: string }> {
  if (actor.kind === 'operator') {
    return [
      { href: '/operator/overview', label: 'Overview' },
      { href: '/operator/clients', label: 'Clients' },
      { href: '/dispute-team', label: 'Arbitration queue' },
      { href: '/operator/audit', label: 'Audit log' },
    ];
  }
  if (actor.kind === 'admin') {
    return [
      { href: '/admin/overview', label: 'Overview' },
      { href: '/admin/transactions', label: 'Transactions' },
      { href: '/admin/customers', label: 'Customers' },
      { href: '/admin/bank-accounts', label: 'Bank accounts' },
      { href: '/admin/payouts', label: 'Payouts' },
      { href: '/admin/webhooks', label: 'Webhooks' },
      { href: '/admin/keys', label: 'API keys' },
      { href: '/admin/team', label: 'Team' },
      { href: '/admin/outbox', label: 'Outbox' },
      { href: '/admin/sandbox', label: 'Test clock' },
      { href: '/admin/audit', label: 'Audit log' },
    ];
  }
  if (actor.kind === 'dispute_team') return [{ href: '/dispute-team', label: 'Arbitration queue' }];
  return [
    { href: '/transactions', label: 'My transactions' },
    { href: '/wallet', label: 'Wallet' },
  ];
}
