'use client';

import { useRouter } from 'next/navigation';
import { setPasswordFromInvite } from '@/lib/actions/invite';
import { MIN_PASSWORD_LENGTH } from '@/lib/contracts/dashboard-plain';
import { textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { toast } from '../ui/toast';

export function AcceptInviteForm({ token }: { token: string }) {
  const router = useRouter();
  const form = useActionForm();
  const bound = form.bind(async (data) => {
    const result = await setPasswordFromInvite({ token, password: textOf(data, 'password'), confirm: textOf(data, 'confirm') });
    if (!result.ok) {
      toast.error(result.message);
      form.report(result);
      return;
    }
    router.push('/login?invited=1');
  });
  return (
    <form {...bound} className="mt-6 space-y-4">
      <TextField
        label="New password"
        name="password"
        type="password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        autoComplete="new-password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        error={form.errorOf('password')}
      />
      <TextField label="Repeat the password" name="confirm" type="password" required autoComplete="new-password" error={form.errorOf('confirm')} />
      <Button type="submit" loading={form.busy} className="w-full">
        Set password
      </Button>
    </form>
  );
}
