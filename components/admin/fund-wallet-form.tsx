'use client';

import { fundWallet } from '@/lib/actions/customers';
import { naira } from '../escrow/format';
import { numberOf } from '../ui/action-form';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/dialog';
import { TextField } from '../ui/field';
import { useConfirmedSubmit } from '../ui/confirmed-submit';

/** Sandbox money in: test keys only (the API answers 403 on a live client). */
export function FundWalletForm({ userId, name, onDone }: { userId: string; name: string; onDone: () => void }) {
  const flow = useConfirmedSubmit({
    read: (data) => numberOf(data, 'amount') ?? 0,
    send: (amount, key) => fundWallet({ user_id: userId, amount, idempotency_key: key }),
    onSent: onDone,
  });
  const { form, pending: amount } = flow;
  return (
    <>
    <ConfirmDialog
      open={amount !== null}
      sending={flow.sending}
      onCancel={flow.cancel}
      onConfirm={flow.confirm}
      title="Add sandbox money?"
      description={amount !== null ? `${naira(amount)} of test money will be credited to ${name}'s wallet.` : undefined}
      confirmLabel="Add money"
    />
    <form {...flow.bound} className="flex flex-wrap items-end gap-2">
      <TextField
        label={`Sandbox: add money to ${name}'s wallet (₦)`}
        name="amount"
        type="number"
        inputMode="decimal"
        required
        step="0.01"
        min="0"
        className="min-w-56 flex-1"
        error={form.errorOf('amount')}
      />
      <Button type="submit" variant="secondary" loading={form.busy}>
        Fund wallet
      </Button>
    </form>
    </>
  );
}
