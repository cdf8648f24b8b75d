'use client';

import { setCustomerActive } from '@/lib/actions/customers';
import type { User } from '@/lib/contracts/dashboard';
import { ConfirmAction } from '../escrow/confirm-action';

/**
 * Deactivate or reactivate, each after a question that says what it does: no new deal may name a
 * deactivated customer and they cannot sign in, while their open deals, wallet and payouts go on.
 */
export function CustomerStatus({ user, openTransactions, onDone }: { user: User; openTransactions: number; onDone: () => void }) {
  const activating = !user.is_active;
  const name = user.first_name;
  const openWords =
    openTransactions === 0
      ? `${name} has no open transactions.`
      : `${name}’s ${openTransactions === 1 ? 'open transaction runs' : `${openTransactions} open transactions run`} on: both sides can still act, and deadlines still lapse.`;
  return (
    <ConfirmAction
      label={activating ? 'Reactivate' : 'Deactivate'}
      variant={activating ? 'secondary' : 'danger'}
      confirmVariant={activating ? 'primary' : 'danger'}
      title={activating ? `Reactivate ${name}?` : `Deactivate ${name}?`}
      description={
        activating
          ? `New transactions may name ${name} again, and ${name} can sign in to the dashboard again.`
          : `No new transaction may name ${name}, and ${name} can no longer sign in. ${openWords} The wallet balance stays ${name}’s and can still be paid out.`
      }
      run={(key) => setCustomerActive({ user_id: user.id, active: activating, idempotency_key: key })}
      onDone={onDone}
    />
  );
}
