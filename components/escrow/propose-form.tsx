'use client';

import { proposeAmount } from '@/app/(dashboard)/disputes/actions';
import type { Dispute } from '@/lib/contracts/dashboard';
import { numberOf } from '../ui/action-form';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/dialog';
import { TextField } from '../ui/field';
import { useConfirmedSubmit } from '../ui/confirmed-submit';
import { naira } from './money';

export function ProposeForm({ dispute, onDone }: { dispute: Dispute; onDone: () => void }) {
  // The range this dispute allows now (min/max on the field; the action's contract and the API check again).
  const max = dispute.max_dispute_amount;
  const revising = dispute.proposals.some((p) => p.proposed_by === 'seller');
  const flow = useConfirmedSubmit({
    read: (data) => numberOf(data, 'dispute_amount') ?? 0,
    send: (amount, key) => proposeAmount({ dispute_id: dispute.id, idempotency_key: key, dispute_amount: amount }),
    onSent: onDone,
  });
  const { form, pending: amount } = flow;
  return (
    <>
      <form {...flow.bound} className="flex flex-wrap items-end gap-2">
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
      <ConfirmDialog
        open={amount !== null}
        sending={flow.sending}
        onCancel={flow.cancel}
        onConfirm={flow.confirm}
        title="Send this proposal?"
        description={amount !== null ? `You propose to receive ${naira(amount)}. If the buyer approves, the money moves at once.` : undefined}
        confirmLabel="Send proposal"
      />
    </>
  );
}
