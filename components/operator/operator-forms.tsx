'use client';

import { useRouter } from 'next/navigation';
import { connectClientKey, createClient, updateClient } from '@/lib/actions/clients';
import type { ClientDetailView } from '@/lib/contracts/dashboard-staff';
import { numberOf, textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { SelectField, TextField } from '../ui/field';
import { useIntentKey } from '../ui/intent-key';
import { toast } from '../ui/toast';

/** A new client: created, then opened on its own page. */
export function NewClientForm() {
  const router = useRouter();
  const form = useActionForm();
  const [key, renewKey] = useIntentKey();
  const bound = form.bind(async (data, el) => {
    const mode = textOf(data, 'mode') as 'test' | 'live';
    const result = await createClient({ name: textOf(data, 'name'), mode, idempotency_key: key });
    toast.result(result);
    form.report(result);
    if (result.ok && result.data) {
      el.reset();
      renewKey();
      router.push(`/operator/clients/${result.data.client_id}`);
    }
  });
  return (
    <form {...bound} aria-label="New client" className="grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
      <TextField label="Name" name="name" required maxLength={200} autoComplete="off" error={form.errorOf('name')} />
      <SelectField label="Mode" name="mode" defaultValue="test" error={form.errorOf('mode')}>
        <option value="test">Test (sandbox)</option>
        <option value="live">Live (real money)</option>
      </SelectField>
      <Button type="submit" loading={form.busy}>
        Create client
      </Button>
    </form>
  );
}

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

export function SettingsForm({ client }: { client: ClientDetailView['client'] }) {
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

export function ConnectKeyForm({ clientId }: { clientId: string }) {
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
