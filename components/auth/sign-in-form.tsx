'use client';

import { useState } from 'react';
import { SIGN_IN_THROTTLED } from '@/lib/contracts/dashboard-plain';
import { sameOriginPath } from '@/lib/contracts/redirect-target';
import { textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { signInWithPassword } from './next-auth-client';

const FAILURES: Record<string, string> = {
  CredentialsSignin: 'That email and password do not match an account.',
  [SIGN_IN_THROTTLED]: 'Too many failed sign-ins to this account from here: wait a few minutes, then try again.',
};

/** The credentials are checked by next-auth's authorize with the SignInInput contract; the fields only ask for what it needs. */
export function SignInForm({ next }: { next: string }) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useActionForm();

  const bound = form.bind(async (data) => {
    setFailure(null);
    const result = await signInWithPassword(textOf(data, 'email'), textOf(data, 'password'), next);
    if (!result.ok) {
      setFailure(FAILURES[result.error ?? ''] ?? 'Sign-in failed. Try again.');
      return;
    }
    // A full navigation, so every server component renders with the new session cookie; checked again
    // against the real origin, since the browser, not the server, resolves it.
    window.location.assign(sameOriginPath(next, '/dashboard', window.location.origin));
  });

  return (
    <form {...bound} className="mt-6 space-y-4">
      <TextField label="Email" name="email" type="email" required autoComplete="username" error={form.errorOf('email')} />
      <TextField label="Password" name="password" type="password" required autoComplete="current-password" error={form.errorOf('password')} />
      {failure ? (
        <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
          {failure}
        </p>
      ) : null}
      <Button type="submit" loading={form.busy} className="w-full">
        Sign in
      </Button>
    </form>
  );
}
