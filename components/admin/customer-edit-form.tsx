'use client';

import { editCustomer } from '@/lib/actions/customers';
import type { User } from '@/lib/contracts/dashboard';
import { textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { toast } from '../ui/toast';

/** A customer's name and phone as the admin corrects them; an emptied phone is removed. */
export function CustomerEditForm({ user, intentKey, onCancel, onDone }: { user: User; intentKey: string; onCancel: () => void; onDone: () => void }) {
  const form = useActionForm();
  const bound = form.bind(async (data) => {
    const phone = textOf(data, 'phone').trim();
    const result = await editCustomer({
      user_id: user.id,
      first_name: textOf(data, 'first_name'),
      last_name: textOf(data, 'last_name'),
      phone: phone === '' ? null : phone,
      idempotency_key: intentKey,
    });
    toast.result(result);
    form.report(result);
    if (result.ok) onDone();
  });
  return (
    <form {...bound} className="grid gap-3 sm:grid-cols-2" aria-label="Customer details">
      <TextField label="First name" name="first_name" required autoComplete="off" defaultValue={user.first_name} error={form.errorOf('first_name')} />
      <TextField label="Last name" name="last_name" required autoComplete="off" defaultValue={user.last_name} error={form.errorOf('last_name')} />
      <TextField
        label="Phone (optional)"
        name="phone"
        type="tel"
        autoComplete="off"
        defaultValue={user.phone ?? ''}
        className="sm:col-span-2"
        error={form.errorOf('phone')}
      />
      <p className="text-sm text-slate-600 sm:col-span-2">The email ({user.email}) cannot change: it is how {user.first_name} signs in.</p>
      <div className="flex justify-end gap-2 sm:col-span-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={form.busy}>
          Save details
        </Button>
      </div>
    </form>
  );
}
