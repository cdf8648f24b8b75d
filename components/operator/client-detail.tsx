'use client';

import { useRouter } from 'next/navigation';
import { connectClientKey, inviteClientAdmin, updateClient } from '@/app/(dashboard)/operator/clients/actions';
import type { ClientDetailView } from '@/lib/contracts/dashboard-staff';
import { dateTime } from '../escrow/money';
import { InviteStaffForm } from '../staff/lazy-invite-staff-form';
import { StaffList } from '../staff/staff-list';
import { numberOf, textOf, useActionForm } from '../ui/action-form';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { TextField } from '../ui/field';
import { useIntentKey } from '../ui/intent-key';
import { toast } from '../ui/toast';
import { feeWords } from './clients-admin';

function Checkbox({ name, label, hint, defaultChecked }: { name: string; label: string; hint: string; defaultChecked: boolean }) {
  return (
    <label className="flex items-start gap-2 text-sm text-slate-800">
      <input type="checkbox" name={name} defaultChecked={defaultChecked} className="mt-0.5 h-4 w-4 rounded border-slate-400 text-emerald-700" />
      <span>
        <span className="font-medium">{label}</span>
        <span className="block text-xs text-slate-600">{hint}</span>
      </span>
    </label>
  );
}

function SettingsForm({ client }: { client: ClientDetailView['client'] }) {
  const router = useRouter();
  const form = useActionForm();
  const [key, renewKey] = useIntentKey();
  const bound = form.bind(async (data) => {
    const cap = numberOf(data, 'fee_cap');
    const percent = numberOf(data, 'fee_percent');
    const result = await updateClient({
      client_id: client.id,
      name: textOf(data, 'name'),
      is_kyc_completed: data.get('is_kyc_completed') === 'on',
      auto_payout: data.get('auto_payout') === 'on',
      fee_basis_points: percent === undefined ? undefined : Math.round(percent * 100),
      fee_cap: cap ?? null,
      idempotency_key: key,
    });
    toast.result(result);
    form.report(result);
    if (result.ok) {
      renewKey();
      router.refresh();
    }
  });
  return (
    <form {...bound} aria-label="Client settings" className="grid gap-4 sm:grid-cols-2">
      <TextField label="Name" name="name" required maxLength={200} defaultValue={client.name} error={form.errorOf('name')} className="sm:col-span-2" />
      <TextField
        label="Fee (% of each milestone)"
        name="fee_percent"
        type="number"
        min={0}
        max={20}
        step={0.01}
        required
        defaultValue={client.fee_basis_points / 100}
        error={form.errorOf('fee_basis_points') ?? form.errorOf('fee_percent')}
      />
      <TextField
        label="Fee cap per milestone (₦, blank for none)"
        name="fee_cap"
        type="number"
        min={1}
        step={0.01}
        defaultValue={client.fee_cap ?? ''}
        error={form.errorOf('fee_cap')}
      />
      <Checkbox
        name="is_kyc_completed"
        label="KYC complete"
        hint={client.mode === 'live' ? 'A live client creates customers only once this is ticked.' : 'A test client needs no KYC.'}
        defaultChecked={client.is_kyc_completed}
      />
      <Checkbox name="auto_payout" label="Pay sellers out automatically" hint="Released money goes to the seller's saved bank account without a payout request." defaultChecked={client.auto_payout} />
      <div className="sm:col-span-2">
        <Button type="submit" loading={form.busy}>
          Save settings
        </Button>
      </div>
    </form>
  );
}

function ConnectKeyForm({ clientId }: { clientId: string }) {
  const router = useRouter();
  const form = useActionForm();
  const bound = form.bind(async (data, el) => {
    const result = await connectClientKey({ client_id: clientId, secret_key: textOf(data, 'secret_key') });
    toast.result(result);
    form.report(result);
    if (result.ok) {
      el.reset();
      router.refresh();
    }
  });
  return (
    <form {...bound} aria-label="Connect a secret key" className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
      <TextField label="Secret key of this client" name="secret_key" type="password" required autoComplete="off" error={form.errorOf('secret_key')} />
      <Button type="submit" variant="secondary" loading={form.busy}>
        Connect key
      </Button>
    </form>
  );
}

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
    </div>
  );
}
