'use client';

import { decideVerdict } from '@/lib/actions/dispute-team';
import { naira } from '../escrow/format';
import { settlementSplit, splitWords } from '../escrow/money';
import { numberOf, textOf } from '../ui/action-form';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/dialog';
import { TextAreaField } from '../ui/field';
import { NairaField } from '../escrow/naira-field';
import { useConfirmedSubmit } from '../ui/confirmed-submit';

/**
 * The verdict: the seller's share (0 up to what is held, the range shown and checked here and again by the
 * API), a written reason both parties will read, and a confirmation that spells out the split. Final.
 */
export function VerdictForm({
  disputeId,
  max,
  held,
  milestone,
  onDone,
}: {
  disputeId: string;
  max: number;
  held: number;
  milestone: Parameters<typeof settlementSplit>[1];
  onDone: () => void;
}) {
  const flow = useConfirmedSubmit({
    read: (data) => ({ seller_amount: numberOf(data, 'seller_amount') ?? 0, reason: textOf(data, 'reason') }),
    send: (verdict, key) => decideVerdict({ dispute_id: disputeId, idempotency_key: key, ...verdict }),
    onSent: onDone,
  });
  const { form, pending } = flow;
  return (
    <>
      <form {...flow.bound} className="space-y-4" aria-label="Verdict">
        <NairaField
          label="Seller's share (₦)"
          name="seller_amount"
          hint={`From ${naira(0)} to ${naira(max)}. The rest of the ${naira(max)} goes back to the buyer.`}
          min={0}
          max={max}
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
      <ConfirmDialog
        open={pending !== null}
        sending={flow.sending}
        onCancel={flow.cancel}
        onConfirm={flow.confirm}
        title="Give this verdict?"
        description={
          pending ? (
            <span>
              The seller is awarded <strong>{naira(pending.seller_amount)}</strong> of the {naira(held)} held. {splitWords(settlementSplit(pending.seller_amount, milestone, held), 'staff')}. The
              money moves at once and the verdict is final.
            </span>
          ) : undefined
        }
        confirmLabel="Confirm verdict"
      />
    </>
  );
}
