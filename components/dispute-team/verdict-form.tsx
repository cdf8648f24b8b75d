'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { decideVerdict } from '@/app/(dashboard)/dispute-team/actions';
import { VerdictInput } from '@/lib/contracts/dashboard-disputes';
import { naira } from '../escrow/money';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { TextAreaField, TextField } from '../ui/field';
import { newIntentKey } from '../ui/intent-key';
import { useToast } from '../ui/toast';

/**
 * The verdict: the seller's share (0 up to what is held, the range shown and checked here and again by the
 * API), a written reason both parties will read, and a confirmation that spells out the split. Final.
 */
export function VerdictForm({ disputeId, max, held, onDone }: { disputeId: string; max: number; held: number; onDone: () => void }) {
  const toast = useToast();
  const schema = useMemo(
    () => VerdictInput.refine((v) => v.seller_amount <= max, { path: ['seller_amount'], message: `must be between ${naira(0)} and ${naira(max)}` }),
    [max],
  );
  const blank = () => ({ dispute_id: disputeId, idempotency_key: newIntentKey(), seller_amount: '' as unknown as number, reason: '' });
  const form = useForm({ resolver: zodResolver(schema), defaultValues: blank() });
  const [pending, setPending] = useState<{ seller_amount: number; sending: boolean } | null>(null);
  const onSubmit = form.handleSubmit((values) => setPending({ seller_amount: values.seller_amount, sending: false }));
  async function confirm() {
    if (!pending) return;
    setPending({ ...pending, sending: true });
    const result = await decideVerdict(form.getValues());
    toast.result(result);
    setPending(null);
    if (result.ok) {
      form.reset(blank());
      onDone();
    }
  }
  return (
    <>
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Verdict">
        <TextField
          label="Seller's share (₦)"
          hint={`From ${naira(0)} to ${naira(max)}. The rest of the ${naira(max)} goes back to the buyer.`}
          type="number"
          inputMode="decimal"
          step="0.01"
          min={0}
          max={max}
          error={form.formState.errors.seller_amount?.message}
          {...form.register('seller_amount', { valueAsNumber: true })}
        />
        <TextAreaField
          label="Reason"
          hint="Both parties read this with the outcome: say what in the evidence decided it."
          rows={5}
          error={form.formState.errors.reason?.message}
          {...form.register('reason')}
        />
        <div className="flex justify-end">
          <Button type="submit">Give verdict</Button>
        </div>
      </form>
      <Dialog
        open={pending !== null}
        onClose={() => !pending?.sending && setPending(null)}
        title="Give this verdict?"
        description={
          pending ? (
            <span>
              The seller receives <strong>{naira(pending.seller_amount)}</strong> (less its fee share); the rest of the {naira(held)} held goes back
              to the buyer. The money moves at once and the verdict is final.
            </span>
          ) : undefined
        }
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setPending(null)} disabled={pending?.sending}>
            Cancel
          </Button>
          <Button onClick={confirm} loading={pending?.sending}>
            Confirm verdict
          </Button>
        </div>
      </Dialog>
    </>
  );
}
