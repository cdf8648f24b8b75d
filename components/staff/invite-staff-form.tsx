'use client';

import { useState } from 'react';
import type { ActionResult } from '@/lib/contracts/dashboard';
import type { InviteResult, TeamRole } from '@/lib/contracts/dashboard-staff';
import { InviteLink } from '../admin/invite-link';
import { textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { SelectField, TextField } from '../ui/field';
import { toast } from '../ui/toast';

type Invite = (input: { email: string; name: string; role?: TeamRole }) => Promise<ActionResult<InviteResult>>;

/** Name, email and (when `roles` are offered) admin or viewer; the one-time link comes back shown once. */
export function InviteStaffForm({ invite, roles, label, onInvited }: { invite: Invite; roles?: boolean; label: string; onInvited: () => void }) {
  const form = useActionForm();
  const [path, setPath] = useState<string | null>(null);
  const bound = form.bind(async (data, el) => {
    setPath(null);
    const role = textOf(data, 'role');
    const result = await invite({ email: textOf(data, 'email'), name: textOf(data, 'name'), ...(roles ? { role: role as TeamRole } : {}) });
    toast.result(result);
    form.report(result);
    if (result.ok && result.data) {
      setPath(result.data.invite_path);
      el.reset();
      onInvited();
    }
  });
  return (
    <div className="space-y-4">
      <form {...bound} aria-label={label} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_auto_auto] lg:items-end">
        <TextField label="Name" name="name" required maxLength={120} autoComplete="off" error={form.errorOf('name')} />
        <TextField label="Email" name="email" type="email" required autoComplete="off" error={form.errorOf('email')} />
        {roles ? (
          <SelectField label="Role" name="role" defaultValue="admin" error={form.errorOf('role')}>
            <option value="admin">Admin: sees and changes everything</option>
            <option value="viewer">Viewer: sees everything, changes nothing</option>
          </SelectField>
        ) : null}
        <Button type="submit" loading={form.busy}>
          Send invite
        </Button>
      </form>
      {path ? <InviteLink path={path} /> : null}
    </div>
  );
}
