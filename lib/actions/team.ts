'use server';

import type { ActionResult } from '@/lib/contracts/dashboard';
import { InviteMemberInput, MemberInput, type InviteResult } from '@/lib/contracts/dashboard-staff';
import { getDb } from '@/lib/server/db/client';
import { guarded } from '@/lib/server/dashboard/action';
import { auditStaffAction } from '@/lib/server/dashboard/audit';
import { inviteStaff, removeMember as remove, resendInvite as resend } from '@/lib/server/dashboard/staff';

// Viewers never reach these bodies (guarded refuses them); customers and the service's staff are refused here.
const admins = { role: 'admin', refused: 'Only an admin of the marketplace manages its team.' } as const;

export const inviteMember = guarded(
  { input: InviteMemberInput, ...admins },
  async ({ email, name, role }, { actor }): Promise<ActionResult<InviteResult>> => {
    const invited = await inviteStaff(await getDb(), { clientId: actor.clientId, email, name, role, invitedBy: actor.accountId, now: new Date() });
    if (!invited.ok) return { ok: false, message: invited.message, errors: [{ field: 'email', message: invited.message }] };
    await auditStaffAction(actor, 'member_invited', { target: invited.account.id, detail: { email: invited.account.email, role } });
    return { ok: true, message: `Invite emailed to ${invited.account.email}: the link works once, for 7 days.`, data: { invite_path: `/invite/${invited.token}` } };
  },
);

/** Removes a member, or revokes an invite not yet used. */
export const removeMember = guarded(
  { input: MemberInput, ...admins },
  async ({ account_id }, { actor }): Promise<ActionResult> => {
    const removed = await remove(await getDb(), actor.clientId, account_id, actor.accountId, new Date());
    if (removed.ok) await auditStaffAction(actor, 'member_removed', { target: account_id, detail: { email: removed.account.email, role: removed.account.role } });
    return { ok: removed.ok, message: removed.message };
  },
);

export const resendInvite = guarded(
  { input: MemberInput, ...admins },
  async ({ account_id }, { actor }): Promise<ActionResult<InviteResult>> => {
    const invited = await resend(await getDb(), actor.clientId, account_id, actor.accountId, new Date());
    if (!invited.ok) return { ok: false, message: invited.message };
    await auditStaffAction(actor, 'member_invite_resent', { target: account_id, detail: { email: invited.account.email } });
    return { ok: true, message: `A new invite was emailed to ${invited.account.email}; the earlier link no longer works.`, data: { invite_path: `/invite/${invited.token}` } };
  },
);
