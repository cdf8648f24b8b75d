'use client';

import { useRouter } from 'next/navigation';
import { inviteClientAdmin } from '@/lib/actions/clients';
import type { ClientDetailView } from '@/lib/contracts/dashboard-staff';
import { dateTime } from '../escrow/format';
import { InviteStaffForm } from '../staff/lazy-invite-staff-form';
import { StaffList } from '../staff/staff-list';
import { Badge } from '../ui/badge';
import { Card, CardHeader } from '../ui/card';
import { feeWords } from './clients-admin';
import { ConnectKeyForm, SettingsForm } from './lazy-operator-forms';

export function ClientDetail({ view }: { view: ClientDetailView }) {
  const router = useRouter();
  const { client, admins } = view;
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Settings"
          description={`${client.mode === 'live' ? 'Live' : 'Test'} client since ${dateTime(client.created_at)} · ${feeWords(client)}. Changes reach every server within a second; fees apply to milestones created afterwards.`}
          actions={
            <>
              <Badge tone={client.mode === 'live' ? 'green' : 'blue'}>{client.mode}</Badge>
              {client.mode === 'live' ? <Badge tone={client.is_kyc_completed ? 'green' : 'amber'}>{client.is_kyc_completed ? 'KYC complete' : 'KYC pending'}</Badge> : null}
            </>
          }
        />
        <SettingsForm client={client} />
      </Card>
      <Card className="space-y-4">
        <CardHeader title="Admins" description="The client's own people: they sign in with a one-time link and then invite their colleagues." />
        <StaffList members={admins} label="Admins and viewers" />
        <InviteStaffForm label="Invite an admin" invite={(input) => inviteClientAdmin({ client_id: client.id, ...input })} onInvited={() => router.refresh()} />
      </Card>
      <Card className="space-y-3">
        <CardHeader
          title="Dashboard key"
          description={
            client.dashboard_key
              ? "The dashboard holds this client's secret key, encrypted: its admins act with it. When an admin rolls the key, the dashboard keeps the new one."
              : 'The dashboard holds no key for this client (it was created straight through the API): its admins can sign in but not act until a current secret key is connected here.'
          }
        />
        {client.dashboard_key ? <Badge tone="green">key held</Badge> : <ConnectKeyForm clientId={client.id} />}
      </Card>
      {/* The client's admins are told to ask the people who run this server: these are the settings they will ask about. */}
      <Card className="space-y-2" data-testid="server-settings">
        <CardHeader title="Server settings the client's admins may ask about" />
        <p className="text-sm text-slate-700">
          Emails are sent only while the server has <code>SMTP_URL</code> set; without it each one is kept in the client&apos;s Outbox.
        </p>
        <p className="text-sm text-slate-700">
          Webhook endpoints at private addresses (and plain http to them, for test keys) are accepted only by a server started with <code>ESCROW_WEBHOOKS_ALLOW_PRIVATE=1</code>.
        </p>
      </Card>
    </div>
  );
}
