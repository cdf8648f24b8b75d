'use client';

import { useState } from 'react';
import { decideVerdict } from '@/app/(dashboard)/dispute-team/actions';
import { naira } from '../escrow/money';
import { numberOf, textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { TextAreaField, TextField } from '../ui/field';
import { useIntentKey } from '../ui/intent-key';
import { useToast } from '../ui/toast';

/**
 * The verdict: the seller's share (0 up to what is held, the range shown and checked here and again by the
 * API), a written reason both parties will read, and a confirmation that spells out the split. Final.
 */
export function VerdictForm({ disputeId, max, held, onDone }: { disputeId: string; max: number; held: number; onDone: () => void }) {
  const toast = useToast();
  const form = useActionForm();
  const [key, renewKey] = useIntentKey();
  const [pending, setPending] = useState<{ seller_amount: number; reason: string; sending: boolean; form: HTMLFormElement } | null>(null);
  const bound = form.bind((data, el) => setPending({ seller_amount: numberOf(data, 'seller_amount') ?? 0, reason: textOf(data, 'reason'), sending: false, form: el }));
  async function confirm() {
    if (!pending) return;
    setPending({ ...pending, sending: true });
    const result = await decideVerdict({ dispute_id: disputeId, idempotency_key: key, seller_amount: pending.seller_amount, reason: pending.reason });
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
      <form {...bound} className="space-y-4" aria-label="Verdict">
        <TextField
          label="Seller's share (₦)"
          name="seller_amount"
          required
          hint={`From ${naira(0)} to ${naira(max)}. The rest of the ${naira(max)} goes back to the buyer.`}
          type="number"
          inputMode="decimal"
          step="0.01"
          min={0}
          max={max}
          data-range-error={`must be between ${naira(0)} and ${naira(max)}`}
          error={form.errorOf('seller_amount')}
        />
        <TextAreaField
          label="Reason"
          hint="Both parties read this with the outcome: say what in the evidence decided it."
          name="reason"
          required
          rows={5}
          error={form.errorOf('reason')}
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
