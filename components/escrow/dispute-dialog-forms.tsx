'use client';

import { cancelDispute, extendEvidenceWindow, rejectAmount } from '@/lib/actions/disputes';
import { textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { TextAreaField } from '../ui/field';
import { toast } from '../ui/toast';

/** The bodies of the dispute's click-only dialogs, loaded on opening; the dialogs hold their Idempotency-Key. */
type FormProps = { disputeId: string; intentKey: string; onCancel: () => void; onDone: () => void };

export function RejectAmountForm({ disputeId, intentKey, onCancel, onDone }: FormProps) {
  const form = useActionForm();
  const bound = form.bind(async (data) => {
    const result = await rejectAmount({ dispute_id: disputeId, idempotency_key: intentKey, reason: textOf(data, 'reason') });
    toast.result(result);
    form.report(result);
    if (result.ok) onDone();
  });
  return (
    <form {...bound} className="space-y-4">
      <TextAreaField label="Reason (optional)" name="reason" error={form.errorOf('reason')} />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" loading={form.busy}>
          Reject amount
        </Button>
      </div>
    </form>
  );
}

/** Either party's one extension of the evidence window, with the reason the dispute team will read. */
export function ExtendEvidenceForm({ disputeId, intentKey, onCancel, onDone }: FormProps) {
  const form = useActionForm();
  const bound = form.bind(async (data) => {
    const result = await extendEvidenceWindow({ dispute_id: disputeId, idempotency_key: intentKey, reason: textOf(data, 'reason') });
    toast.result(result);
    form.report(result);
    if (result.ok) onDone();
  });
  return (
    <form {...bound} className="space-y-4">
      <TextAreaField label="Why do you need more time?" name="reason" required error={form.errorOf('reason')} />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={form.busy}>
          Extend by 2 business days
        </Button>
      </div>
    </form>
  );
}

/** `onBusy` lets the dialog refuse to close while the withdrawal is being sent. */
export function WithdrawDisputeForm({ disputeId, intentKey, onCancel, onDone, onBusy }: FormProps & { onBusy: (busy: boolean) => void }) {
  const form = useActionForm();
  const bound = form.bind(async (data) => {
    onBusy(true);
    try {
      const result = await cancelDispute({ dispute_id: disputeId, idempotency_key: intentKey, cancellation_agreement_details: textOf(data, 'cancellation_agreement_details') });
      toast.result(result);
      form.report(result);
      if (result.ok) onDone();
    } finally {
      onBusy(false);
    }
  });
  return (
    <form {...bound} className="space-y-4">
      <TextAreaField
        label="What was agreed"
        name="cancellation_agreement_details"
        required
        hint="Recorded with the dispute, for both of you."
        error={form.errorOf('cancellation_agreement_details')}
      />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel} disabled={form.busy}>
          Keep the dispute
        </Button>
        <Button type="submit" variant="danger" loading={form.busy}>
          Withdraw and refund the buyer
        </Button>
      </div>
    </form>
  );
}
