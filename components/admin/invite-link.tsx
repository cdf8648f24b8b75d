'use client';

import { ShownOnce } from '../ui/shown-once';

/** The one-time link, shown once: the admin passes it on (email, chat); only its hash is stored. */
export function InviteLink({ path }: { path: string }) {
  const url = typeof window === 'undefined' ? path : `${window.location.origin}${path}`;
  return <ShownOnce title="One-time invite link (valid 7 days, shown only now)" label="Invite link" value={url} testId="invite-link" />;
}
