import type { ReactNode } from 'react';
import type { StaffMember } from '@/lib/contracts/dashboard-staff';
import { dateTime } from '../escrow/format';
import { Badge } from '../ui/badge';
import { EmptyState } from '../ui/states';

const STATUS_WORDS: Record<StaffMember['status'], { text: string; tone: 'green' | 'amber' | 'grey' }> = {
  active: { text: 'active', tone: 'green' },
  invited: { text: 'invited', tone: 'amber' },
  expired: { text: 'invite expired', tone: 'grey' },
};

/** Admins and viewers of a client, each with its role, where its invite stands, and what may be done with it. */
export function StaffList({ members, label, actions }: { members: StaffMember[]; label: string; actions?: (member: StaffMember) => ReactNode }) {
  if (members.length === 0) return <EmptyState title="Nobody yet">Invite someone by email: they choose their password with a one-time link.</EmptyState>;
  return (
    <ul className="divide-y rounded-md border" aria-label={label}>
      {members.map((m) => (
        <li key={m.account_id} className="flex flex-wrap items-center justify-between gap-3 px-3 py-3" data-testid="staff-row" data-email={m.email}>
          <div className="min-w-0 flex-1">
            <p className="break-words font-medium text-slate-900">{m.name}</p>
            <p className="break-all text-sm text-slate-600">{m.email}</p>
            <p className="text-xs text-slate-600">
              {m.last_signed_in_at ? `Last signed in ${dateTime(m.last_signed_in_at)}` : `Invited ${dateTime(m.invited_at)}`}
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={m.role === 'admin' ? 'blue' : 'violet'}>{m.role === 'admin' ? 'admin' : 'viewer (read-only)'}</Badge>
            <Badge tone={STATUS_WORDS[m.status].tone}>{STATUS_WORDS[m.status].text}</Badge>
            {actions?.(m)}
          </div>
        </li>
      ))}
    </ul>
  );
}
