'use client';

import { useState } from 'react';
import { setCustomerActive } from '@/app/(dashboard)/admin/customers/actions';
import type { User } from '@/lib/contracts/dashboard';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/dialog';
import { useIntentKey } from '../ui/intent-key';
import { toast } from '../ui/toast';

/**
 * Deactivate or reactivate, each after a question that says what it does: no new deal may name a
 * deactivated customer and they cannot sign in, while their open deals, wallet and payouts go on.
 */
export function CustomerStatus({ user, openTransactions, onDone }: { user: User; openTransactions: number; onDone: () => void }) {
  const [asking, setAsking] = useState(false);
  const [sending, setSending] = useState(false);
  const [key, renewKey] = useIntentKey();
  const activating = !user.is_active;
  const name = user.first_name;
  const openWords =
    openTransactions === 0
      ? `${name} has no open transactions.`
      : `${name}’s ${openTransactions === 1 ? 'open transaction runs' : `${openTransactions} open transactions run`} on: both sides can still act, and deadlines still lapse.`;
  return (
    <>
      <Button variant={activating ? 'secondary' : 'danger'} onClick={() => setAsking(true)}>
        {activating ? 'Reactivate' : 'Deactivate'}
      </Button>
      <ConfirmDialog
        open={asking}
        sending={sending}
        onCancel={() => setAsking(false)}
        onConfirm={async () => {
          setSending(true);
          const result = await setCustomerActive({ user_id: user.id, active: activating, idempotency_key: key });
          setSending(false);
          toast.result(result);
          if (!result.ok) return;
          renewKey();
          setAsking(false);
          onDone();
        }}
        title={activating ? `Reactivate ${name}?` : `Deactivate ${name}?`}
        description={
          activating
            ? `New transactions may name ${name} again, and ${name} can sign in to the dashboard again.`
            : `No new transaction may name ${name}, and ${name} can no longer sign in. ${openWords} The wallet balance stays ${name}’s and can still be paid out.`
        }
        confirmLabel={activating ? 'Reactivate' : 'Deactivate'}
        variant={activating ? 'primary' : 'danger'}
      />
    </>
  );
}
