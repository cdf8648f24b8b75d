'use client';

import { useState } from 'react';
import { Button } from '../ui/button';

/** The one-time link, shown once: the admin passes it on (email, chat); only its hash is stored. */
export function InviteLink({ path }: { path: string }) {
  const [copied, setCopied] = useState(false);
  const url = typeof window === 'undefined' ? path : `${window.location.origin}${path}`;
  return (
    <div className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm">
      <p className="font-medium text-emerald-900">One-time invite link (valid 7 days, shown only now)</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <input readOnly value={url} aria-label="Invite link" data-testid="invite-link" className="min-w-0 flex-1 rounded border bg-white px-2 py-1 font-mono text-xs" onFocus={(e) => e.target.select()} />
        <Button
          size="sm"
          variant="secondary"
          onClick={async () => {
            await navigator.clipboard?.writeText(url).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </div>
  );
}
