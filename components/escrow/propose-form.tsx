'use client';

import { useState } from 'react';
import { proposeAmount } from '@/app/(dashboard)/disputes/actions';
import type { Dispute } from '@/lib/contracts/dashboard';
import { numberOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { TextField } from '../ui/field';
import { useIntentKey } from '../ui/intent-key';
import { useToast } from '../ui/toast';
import { naira } from './money';

export 
function ProposeForm({ dispute, onDone }: { dispute: Dispute; onDone: () => void }) {
  const toast = useToast();
  const form = useActionForm();
  const [key, renewKey] = useIntentKey();
  // The range this dispute allows now (min/max on the field; the action's contract and the API check again).
  const max = dispute.max_dispute_amount;
  const revising = dispute.proposals.some((p) => p.proposed_by === 'seller');
  const [pending, setPending] = useState<{ amount: number; sending: boolean; form: HTMLFormElement } | null>(null);
  const bound = form.bind((data, el) => setPending({ amount: numberOf(data, 'dispute_amount') ?? 0, sending: false, form: el }));
  async function confirm() {
    if (!pending) return;
    setPending({ ...pending, sending: true });
    const result = await proposeAmount({ dispute_id: dispute.id, idempotency_key: key, dispute_amount: pending.amount });
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
      <form {...bound} className="flex flex-wrap items-end gap-2">
        <TextField
          label={revising ? 'Revise the amount you should receive (₦)' : 'Amount you should receive (₦)'}
          name="dispute_amount"
          hint={`Between ${naira(0)} and ${naira(max)}: the rest of the money held goes back to the buyer.`}
          type="number"
          inputMode="decimal"
          required
          step="0.01"
          min={0}
          max={max}
          data-range-error={`must be between ${naira(0)} and ${naira(max)}`}
          className="min-w-64 flex-1"
          error={form.errorOf('dispute_amount')}
        />
        <Button type="submit">{revising ? 'Propose revised amount' : 'Propose amount'}</Button>
      </form>
      <Dialog
        open={pending !== null}
        onClose={() => !pending?.sending && setPending(null)}
        title="Send this proposal?"
        description={pending ? `You propose to receive ${naira(pending.amount)}. If the buyer approves, the money moves at once.` : undefined}
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setPending(null)} disabled={pending?.sending}>
            Cancel
          </Button>
          <Button onClick={confirm} loading={pending?.sending}>
            Send proposal
          </Button>
        </div>
      </Dialog>
    </>
  );
}
