import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import { AppHeader } from '@/components/shell/app-header';
import { requireActor } from '@/lib/server/dashboard/actor';

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const actor = await requireActor();
  const links =
    actor.kind === 'admin'
      ? [
          { href: '/admin/transactions', label: 'Transactions' },
          { href: '/admin/customers', label: 'Customers' },
          { href: '/admin/bank-accounts', label: 'Bank accounts' },
          { href: '/admin/payouts', label: 'Payouts' },
          { href: '/admin/webhooks', label: 'Webhooks' },
          { href: '/admin/keys', label: 'API keys' },
          { href: '/admin/outbox', label: 'Outbox' },
          { href: '/admin/sandbox', label: 'Test clock' },
        ]
      : actor.kind === 'dispute_team'
        ? [{ href: '/dispute-team', label: 'Arbitration queue' }]
        : [
            { href: '/transactions', label: 'My transactions' },
            { href: '/wallet', label: 'Wallet' },
          ];
  const role = actor.kind === 'admin' ? 'Admin' : actor.kind === 'dispute_team' ? 'Dispute team' : 'Customer';
  return (
    <Providers>
      <AppHeader links={links} name={actor.name} role={role} bell={actor.kind !== 'dispute_team'} />
      <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        {children}
      </main>
    </Providers>
  );
}
