'use client';

import Link from 'next/link';
import { useState } from 'react';
import { createCustomer } from '@/lib/actions/customers';
import { textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { useIntentKey } from '../ui/intent-key';
import { toast } from '../ui/toast';
import { InviteLink } from './invite-link';

export function CreateCustomerForm({ onCreated }: { onCreated: () => void }) {
  const form = useActionForm();
  const [key, renewKey] = useIntentKey();
  const [created, setCreated] = useState<{ userId: string; invitePath?: string; name: string } | null>(null);
  const bound = form.bind(async (data, el) => {
    setCreated(null);
    const phone = textOf(data, 'user.phone');
    const user = {
      first_name: textOf(data, 'user.first_name'),
      last_name: textOf(data, 'user.last_name'),
      email_address: textOf(data, 'user.email_address'),
      ...(phone ? { phone } : {}),
    };
    const result = await createCustomer({ user, invite: data.get('invite') === 'on', idempotency_key: key });
    toast.result(result);
    form.report(result);
    if (result.ok && result.data) {
      setCreated({ userId: result.data.user_id, invitePath: result.data.invite_path, name: user.first_name });
      el.reset();
      renewKey();
      onCreated();
    }
  });
  return (
    <div className="space-y-4">
      <form {...bound} className="grid gap-3 sm:grid-cols-2" aria-label="New customer">
        <TextField label="First name" name="user.first_name" required autoComplete="off" error={form.errorOf('user.first_name')} />
        <TextField label="Last name" name="user.last_name" required autoComplete="off" error={form.errorOf('user.last_name')} />
        <TextField
          label="Email"
          name="user.email_address"
          type="email"
          required
          autoComplete="off"
          error={form.errorOf('user.email_address') ?? form.errorOf('user.email')}
        />
        <TextField label="Phone (optional)" name="user.phone" type="tel" autoComplete="off" error={form.errorOf('user.phone')} />
        <label className="flex items-center gap-2 text-sm sm:col-span-2">
          <input type="checkbox" name="invite" defaultChecked className="h-4 w-4 rounded border-slate-300" />
          Make a dashboard invite link for this customer
        </label>
        <div className="sm:col-span-2">
          <Button type="submit" loading={form.busy}>
            Create customer
          </Button>
        </div>
      </form>
      {created ? (
        <div className="space-y-2" role="status">
          <p className="text-sm text-slate-700">
            {created.name} was created.{' '}
            <Link className="text-emerald-800 underline" href={`/admin/customers/${created.userId}`}>
              Open their page
            </Link>
          </p>
          {created.invitePath ? <InviteLink path={created.invitePath} /> : null}
        </div>
      ) : null}
    </div>
  );
}
