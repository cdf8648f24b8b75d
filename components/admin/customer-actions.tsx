'use client';

import { useRouter } from 'next/navigation';
import { lazy, useState } from 'react';
import { inviteCustomer } from '@/lib/actions/customers';
import type { User } from '@/lib/contracts/dashboard';
import { Button } from '../ui/button';
import { FormDialog } from '../ui/form-dialog';
import { toast } from '../ui/toast';
import { CustomerStatus } from './customer-status';
import { InviteLink } from './invite-link';

const loadEditForm = () => import('./customer-edit-form');
const CustomerEditForm = lazy(() => loadEditForm().then((m) => ({ default: m.CustomerEditForm })));

/** What an admin does to a customer: edit, deactivate or reactivate, invite to the dashboard. */
export function CustomerActions({ user, access, openTransactions }: { user: User; access: 'active' | 'invited' | 'none'; openTransactions: number }) {
  const [invitePath, setInvitePath] = useState<string | null>(null);
  const [inviting, setInviting] = useState(false);
  const router = useRouter();
  return (
    <>
      <div className="mt-4 flex flex-wrap gap-2">
        <FormDialog
          label="Edit details"
          variant="secondary"
          title={`Edit ${user.first_name} ${user.last_name}`}
          description="Name and phone. The new name shows on their wallet and every deal."
          preload={loadEditForm}
          onDone={() => router.refresh()}
        >
          {(handlers) => <CustomerEditForm user={user} {...handlers} />}
        </FormDialog>
        <CustomerStatus user={user} openTransactions={openTransactions} onDone={() => router.refresh()} />
      </div>
      {access !== 'active' && user.is_active ? (
        <div className="mt-4 space-y-3">
          <Button
            variant="secondary"
            loading={inviting}
            onClick={async () => {
              setInviting(true);
              const result = await inviteCustomer({ user_id: user.id });
              setInviting(false);
              toast.result(result);
              if (result.ok && result.data) setInvitePath(result.data.invite_path);
            }}
          >
            {access === 'invited' ? 'Make a new invite link' : 'Invite to the dashboard'}
          </Button>
          {invitePath ? <InviteLink path={invitePath} /> : null}
        </div>
      ) : null}
    </>
  );
}
