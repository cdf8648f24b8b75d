'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { SignInInput } from '@/lib/contracts/dashboard';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { signInWithPassword } from './next-auth-client';

export function SignInForm({ next }: { next: string }) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<SignInInput>({ resolver: zodResolver(SignInInput), defaultValues: { email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ email, password }) => {
    setFailure(null);
    const result = await signInWithPassword(email, password, next);
    if (!result.ok) {
      setFailure(result.error === 'CredentialsSignin' ? 'That email and password do not match an account.' : 'Sign-in failed. Try again.');
      return;
    }
    // A full navigation, so every server component renders with the new session cookie.
    window.location.assign(next);
  });

  return (
    <form onSubmit={onSubmit} noValidate className="mt-6 space-y-4">
      <TextField label="Email" type="email" autoComplete="username" error={errors.email?.message} {...form.register('email')} />
      <TextField label="Password" type="password" autoComplete="current-password" error={errors.password?.message} {...form.register('password')} />
      {failure ? (
        <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
          {failure}
        </p>
      ) : null}
      <Button type="submit" loading={isSubmitting} className="w-full">
        Sign in
      </Button>
    </form>
  );
}
