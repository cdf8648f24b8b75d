'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { rollKey } from '@/lib/actions/keys';
import type { KeysView, RolledKey } from '@/lib/contracts/dashboard';
import { MAX_KEY_OVERLAP_HOURS } from '@/lib/contracts/dashboard-plain';
import { dateTime } from '../escrow/format';
import { Badge } from '../ui/badge';
import { Card, CardHeader } from '../ui/card';
import { ConfirmAction } from '../escrow/confirm-action';
import { SelectField } from '../ui/field';
import { ShownOnce } from '../ui/shown-once';

const OVERLAPS = [0, 1, 24, MAX_KEY_OVERLAP_HOURS] as const;
const overlapLabel = (hours: number) => (hours === 0 ? 'stop working at once' : `keep working for ${hours} hour${hours === 1 ? '' : 's'}`);

/** The public key, the secret keys by their last 4 characters, and rolling with the new key shown once. */
export function KeysAdmin({ view }: { view: KeysView }) {
  const router = useRouter();
  const [hours, setHours] = useState(24);
  const [rolled, setRolled] = useState<RolledKey | null>(null);
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader title="Public key" description={`Safe to share; it names your ${view.mode} account.`} />
        <p className="break-all font-mono text-sm text-slate-900" data-testid="public-key">
          {view.public_key}
        </p>
      </Card>
      <Card className="space-y-4">
        <CardHeader title="Secret keys" description="Only a hash of each key is stored: here are their last 4 characters." />
        <ul className="divide-y rounded-md border" aria-label="Secret keys">
          {view.keys.map((k) => (
            <li key={k.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
              <span className="font-mono">sk_••••{k.last4}</span>
              <span className="text-slate-600">made {dateTime(k.created_at)}</span>
              {k.expired ? <Badge tone="grey">expired</Badge> : k.expires_at ? <Badge tone="amber">works until {dateTime(k.expires_at)}</Badge> : <Badge tone="green">active</Badge>}
            </li>
          ))}
        </ul>
        {rolled?.secret_key ? (
          <ShownOnce
            title={`New secret key (shown only now). This dashboard already uses it; give it to your systems before ${dateTime(rolled.previous_keys_expire_at)}.`}
            label="New secret key"
            value={rolled.secret_key}
            testId="new-secret-key"
            onDismiss={() => setRolled(null)}
          />
        ) : rolled ? (
          <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" role="status">
            This roll was already done; its new key was shown only the first time. If it was not kept, roll again.
          </p>
        ) : null}
        {view.fromEnvironment ? (
          <p className="text-sm text-slate-700">
            This dashboard acts with the key in its <code>ESCROW_API_KEY</code> setting: roll it with <code>POST /v1/keys/roll</code> and put the new key in that setting.
          </p>
        ) : (
          <div className="flex flex-wrap items-end gap-3">
            <SelectField label="The keys that work now" name="expires_in_hours" value={String(hours)} onChange={(e) => setHours(Number(e.target.value))} className="max-w-xs">
              {OVERLAPS.map((h) => (
                <option key={h} value={h}>
                  {overlapLabel(h)}
                </option>
              ))}
            </SelectField>
            <ConfirmAction
              label="Roll secret key"
              variant="danger"
              title="Roll the secret key?"
              description={`A new secret key is made and shown once. The keys that work now ${overlapLabel(hours)}: your systems must switch to the new key by then. This dashboard switches at once.`}
              confirmLabel="Roll the key"
              run={async (key) => {
                const result = await rollKey({ expires_in_hours: hours, idempotency_key: key });
                if (result.ok) setRolled(result.data ?? null);
                return result;
              }}
              onDone={() => router.refresh()}
            />
          </div>
        )}
      </Card>
    </div>
  );
}
