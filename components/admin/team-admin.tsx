'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { inviteMember, removeMember, resendInvite } from '@/lib/actions/team';
import type { TeamView } from '@/lib/contracts/dashboard-staff';
import { ConfirmAction } from '../escrow/confirm-action';
import { InviteStaffForm } from '../staff/lazy-invite-staff-form';
import { StaffList } from '../staff/staff-list';
import { Card, CardHeader } from '../ui/card';
import { InviteLink } from './invite-link';

/** The client's admins and viewers: invite, send an invite again, revoke it, remove a member. */
export function TeamAdmin({ view }: { view: TeamView }) {
  const router = useRouter();
  const [resentPath, setResentPath] = useState<string | null>(null);
  return (
    <div className="space-y-6">
      <Card className="space-y-4">
        <CardHeader title="Members" />
        <StaffList
          members={view.members}
          label="Team members"
          actions={(m) =>
            !view.canManage || m.account_id === view.me ? null : (
              <>
                {m.status !== 'active' ? (
                  <ConfirmAction
                    label="Send invite again"
                    size="sm"
                    variant="secondary"
                    accessibleLabel={`Send the invite to ${m.email} again`}
                    title="Send a new invite?"
                    description={`A new one-time link is emailed to ${m.email}; the earlier link stops working.`}
                    confirmLabel="Send it"
                    run={async () => {
                      const result = await resendInvite({ account_id: m.account_id });
                      if (result.ok && result.data) setResentPath(result.data.invite_path);
                      return result;
                    }}
                    onDone={() => router.refresh()}
                  />
                ) : null}
                <ConfirmAction
                  label={m.status === 'active' ? 'Remove' : 'Revoke invite'}
                  size="sm"
                  variant="danger"
                  accessibleLabel={m.status === 'active' ? `Remove ${m.email}` : `Revoke the invite to ${m.email}`}
                  title={m.status === 'active' ? `Remove ${m.name}?` : `Revoke the invite to ${m.email}?`}
                  description={
                    m.status === 'active'
                      ? `${m.name} can no longer sign in, and is signed out of any open session at once.`
                      : 'The link stops working. You can invite them again later.'
                  }
                  confirmLabel={m.status === 'active' ? 'Remove' : 'Revoke'}
                  run={() => removeMember({ account_id: m.account_id })}
                  onDone={() => router.refresh()}
                />
              </>
            )
          }
        />
        {resentPath ? <InviteLink path={resentPath} /> : null}
      </Card>
      {view.canManage ? (
        <Card>
          <CardHeader title="Invite someone" description="They get an email with a one-time link to choose their password; it works for 7 days." />
          <InviteStaffForm label="Invite a team member" roles invite={(input) => inviteMember(input)} onInvited={() => router.refresh()} />
        </Card>
      ) : (
        <p className="text-sm text-slate-700">You have read-only access: an admin invites and removes team members.</p>
      )}
    </div>
  );
}
