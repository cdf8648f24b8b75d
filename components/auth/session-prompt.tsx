'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { sessionEnded } from '../ui/session-ended';
import { toast } from '../ui/toast';
import { CredentialFields, signInFailure } from './credential-fields';
import { signInWithPassword } from './next-auth-client';

/**
 * When the session ends mid-flow, the person signs in again here, over the page they are on: the form they were
 * filling, the files they uploaded and the dialog they had open stay as they were, and they carry on.
 */
export function SessionPrompt() {
  // Mounted on the first signal (components/providers): open at once, and again at any later one.
  const [open, setOpen] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);
  const pathname = usePathname();
  const router = useRouter();
  const form = useActionForm();
  useEffect(() => sessionEnded.subscribe(() => setOpen(true)), []);

  const bound = form.bind(async (data) => {
    setFailure(null);
    const result = await signInWithPassword(textOf(data, 'email'), textOf(data, 'password'), pathname);
    if (!result.ok) {
      setFailure(signInFailure(result.error));
      return;
    }
    setOpen(false);
    toast.success('You are signed in again: carry on where you were.');
    router.refresh();
  });

  return (
    <Dialog
      open={open}
      onClose={() => setOpen(false)}
      title="Your session has ended"
      description="You were signed out, so nothing was sent. Sign in again to carry on: what you entered and uploaded on this page is kept."
    >
      <form {...bound} aria-label="Sign in again" className="space-y-3">
        <CredentialFields errorOf={form.errorOf} failure={failure} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => router.push(`/login?next=${encodeURIComponent(pathname)}`)}>
            Go to the sign-in page
          </Button>
          <Button type="submit" loading={form.busy}>
            Sign in
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
