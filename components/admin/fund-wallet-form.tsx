'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { fundWallet } from '@/app/(dashboard)/admin/customers/actions';
import { FundWalletInput } from '@/lib/contracts/dashboard';
import { naira } from '../escrow/money';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { TextField } from '../ui/field';
import { newIntentKey } from '../ui/intent-key';
import { useToast } from '../ui/toast';

/** Sandbox money in: test keys only (the API answers 403 on a live client). */
export function FundWalletForm({ userId, name, onDone }: { userId: string; name: string; onDone: () => void }) {
  const toast = useToast();
  const form = useForm({
    resolver: zodResolver(FundWalletInput),
    defaultValues: { user_id: userId, amount: '' as unknown as number, idempotency_key: newIntentKey() },
  });
  const [pending, setPending] = useState<{ values: typeof FundWalletInput._output; sending: boolean } | null>(null);
  const onSubmit = form.handleSubmit((values) => setPending({ values, sending: false }));
  async function confirm() {
    if (!pending) return;
    setPending({ ...pending, sending: true });
    const result = await fundWallet(pending.values);
    toast.result(result);
    setPending(null);
    if (result.ok) {
      form.reset({ user_id: userId, amount: '' as unknown as number, idempotency_key: newIntentKey() });
      onDone();
    }
  }
  return (
    <>
    <Dialog open={pending !== null} onClose={() => !pending?.sending && setPending(null)} title="Add sandbox money?" description={pending ? `${naira(pending.values.amount)} of test money will be credited to ${name}'s wallet.` : undefined}>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => setPending(null)} disabled={pending?.sending}>
          Cancel
        </Button>
        <Button onClick={confirm} loading={pending?.sending}>
          Add money
        </Button>
      </div>
    </Dialog>
    <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-2">
      <TextField
        label={`Sandbox: add money to ${name}'s wallet (₦)`}
        type="number"
        inputMode="decimal"
        step="0.01"
        min="0"
        className="min-w-56 flex-1"
        error={form.formState.errors.amount?.message}
        {...form.register('amount', { valueAsNumber: true })}
      />
      <Button type="submit" variant="secondary" loading={form.formState.isSubmitting}>
        Fund wallet
      </Button>
    </form>
    </>
  );
}
