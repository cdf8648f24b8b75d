'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import Link from 'next/link';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { createCustomer } from '@/app/(dashboard)/admin/customers/actions';
import { CreateCustomerInput } from '@/lib/contracts/dashboard';
import type { CreateCustomerInput as CreateCustomerValues } from '@/lib/contracts/dashboard';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { newIntentKey } from '../ui/intent-key';
import { useToast } from '../ui/toast';
import { InviteLink } from './invite-link';

const empty = (): CreateCustomerValues => ({ user: { first_name: '', last_name: '', email_address: '' }, invite: true, idempotency_key: newIntentKey() });

export function CreateCustomerForm({ onCreated }: { onCreated: () => void }) {
  const toast = useToast();
  const [created, setCreated] = useState<{ userId: string; invitePath?: string; name: string } | null>(null);
  const form = useForm({ resolver: zodResolver(CreateCustomerInput), defaultValues: empty() });
  const errors = form.formState.errors.user;
  const onSubmit = form.handleSubmit(async (values) => {
    setCreated(null);
    const result = await createCustomer(values);
    toast.result(result);
    if (result.ok && result.data) {
      setCreated({ userId: result.data.user_id, invitePath: result.data.invite_path, name: values.user.first_name });
      form.reset(empty());
      onCreated();
    }
  });
  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} noValidate className="grid gap-3 sm:grid-cols-2" aria-label="New customer">
        <TextField label="First name" autoComplete="off" error={errors?.first_name?.message} {...form.register('user.first_name')} />
        <TextField label="Last name" autoComplete="off" error={errors?.last_name?.message} {...form.register('user.last_name')} />
        <TextField label="Email" type="email" autoComplete="off" error={errors?.email_address?.message ?? errors?.email?.message} {...form.register('user.email_address')} />
        <TextField
          label="Phone (optional)"
          type="tel"
          autoComplete="off"
          error={errors?.phone?.message}
          {...form.register('user.phone', { setValueAs: (v: string) => (v ? v : undefined) })}
        />
        <label className="flex items-center gap-2 text-sm sm:col-span-2">
          <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...form.register('invite')} />
          Make a dashboard invite link for this customer
        </label>
        <div className="sm:col-span-2">
          <Button type="submit" loading={form.formState.isSubmitting}>
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
