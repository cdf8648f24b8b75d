'use client';

import Link from 'next/link';
import type { ClientRow } from '@/lib/contracts/dashboard-staff';
import { dateTime, naira } from '../escrow/format';
import { Badge } from '../ui/badge';
import { Card, CardHeader } from '../ui/card';
import { EmptyState } from '../ui/states';
import { NewClientForm } from './lazy-operator-forms';

export const feeWords = (client: Pick<ClientRow, 'fee_basis_points' | 'fee_cap'>) =>
  `${client.fee_basis_points / 100}% fee${client.fee_cap === null ? ', no cap' : `, at most ${naira(client.fee_cap)} a milestone`}`;

/** The clients the service serves, and a form for a new one. */
export function ClientsAdmin({ clients }: { clients: ClientRow[] }) {
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader title="New client" description="A marketplace or agency that holds its customers' money in escrow. A test client uses the sandbox; a live one moves real money once its KYC is complete." />
        <NewClientForm />
      </Card>
      <Card>
        <CardHeader title="Clients" description="Newest first." />
        {clients.length === 0 ? (
          <EmptyState title="No clients yet">Create the first one above, then invite its admin.</EmptyState>
        ) : (
          <ul className="divide-y" aria-label="Clients">
            {clients.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="client-row">
                <div className="min-w-0 flex-1">
                  <Link href={`/operator/clients/${c.id}`} className="break-words font-medium text-emerald-800 underline-offset-2 hover:underline">
                    {c.name}
                  </Link>
                  <p className="break-words text-sm text-slate-600">
                    {feeWords(c)} · created {dateTime(c.created_at)}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Badge tone={c.mode === 'live' ? 'green' : 'blue'}>{c.mode}</Badge>
                  {c.mode === 'live' ? <Badge tone={c.is_kyc_completed ? 'green' : 'amber'}>{c.is_kyc_completed ? 'KYC complete' : 'KYC pending'}</Badge> : null}
                  {c.dashboard_key ? null : <Badge tone="grey">no dashboard key</Badge>}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
