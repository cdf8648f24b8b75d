'use client';

import { useState } from 'react';
import { fundWallet } from '@/app/(dashboard)/admin/customers/actions';
import { naira } from '../escrow/money';
import { numberOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { TextField } from '../ui/field';
import { useIntentKey } from '../ui/intent-key';
import { useToast } from '../ui/toast';

/** Sandbox money in: test keys only (the API answers 403 on a live client). */
export function FundWalletForm({ userId, name, onDone }: { userId: string; name: string; onDone: () => void }) {
  const toast = useToast();
  const form = useActionForm();
  const [key, renewKey] = useIntentKey();
  const [pending, setPending] = useState<{ amount: number; sending: boolean; form: HTMLFormElement } | null>(null);
  const bound = form.bind((data, el) => setPending({ amount: numberOf(data, 'amount') ?? 0, sending: false, form: el }));
  async function confirm() {
    if (!pending) return;
    setPending({ ...pending, sending: true });
    const result = await fundWallet({ user_id: userId, amount: pending.amount, idempotency_key: key });
    toast.result(result);
    form.report(result);
    setPending(null);
    if (result.ok) {
      pending.form.reset();
      renewKey();
      onDone();
    }
  }
  return (
    <>
    <Dialog open={pending !== null} onClose={() => !pending?.sending && setPending(null)} title="Add sandbox money?" description={pending ? `${naira(pending.amount)} of test money will be credited to ${name}'s wallet.` : undefined}>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => setPending(null)} disabled={pending?.sending}>
          Cancel
        </Button>
        <Button onClick={confirm} loading={pending?.sending}>
          Add money
        </Button>
      </div>
    </Dialog>
    <form {...bound} className="flex flex-wrap items-end gap-2">
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
