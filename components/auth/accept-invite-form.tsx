'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useForm } from 'react-hook-form';
import { setPasswordFromInvite } from '@/app/(auth)/invite/[token]/actions';
import { AcceptInviteInput, MIN_PASSWORD_LENGTH } from '@/lib/contracts/dashboard';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { useToast } from '../ui/toast';

type Values = { token: string; password: string; confirm: string };

export function AcceptInviteForm({ token }: { token: string }) {
  const toast = useToast();
  const router = useRouter();
  const form = useForm<Values>({ resolver: zodResolver(AcceptInviteInput), defaultValues: { token, password: '', confirm: '' } });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await setPasswordFromInvite(values);
    if (!result.ok) {
      toast.error(result.message);
      return;
    }
    router.push('/login?invited=1');
  });
  return (
    <form onSubmit={onSubmit} noValidate className="mt-6 space-y-4">
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        error={errors.password?.message}
        {...form.register('password')}
      />
      <TextField label="Repeat the password" type="password" autoComplete="new-password" error={errors.confirm?.message} {...form.register('confirm')} />
      <Button type="submit" loading={isSubmitting} className="w-full">
        Set password
      </Button>
    </form>
  );
}
