'use client';

import { useState } from 'react';
import { sameOriginPath } from '@/lib/contracts/redirect-target';
import { textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { CredentialFields, signInFailure } from './credential-fields';
import { signInWithPassword } from './next-auth-client';

/** The credentials are checked by next-auth's authorize with the SignInInput contract; the fields only ask for what it needs. */
export function SignInForm({ next }: { next: string }) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useActionForm();

  const bound = form.bind(async (data) => {
    setFailure(null);
    const result = await signInWithPassword(textOf(data, 'email'), textOf(data, 'password'), next);
    if (!result.ok) {
      setFailure(signInFailure(result.error));
      return;
    }
    // A full navigation, so every server component renders with the new session cookie; checked again
    // against the real origin, since the browser, not the server, resolves it.
    window.location.assign(sameOriginPath(next, '/dashboard', window.location.origin));
  });

  return (
    <form {...bound} className="mt-6 space-y-4">
      <CredentialFields errorOf={form.errorOf} failure={failure} />
      <Button type="submit" loading={form.busy} className="w-full">
        Sign in
      </Button>
    </form>
  );
}
