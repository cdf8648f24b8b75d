'use client';

import { cancelTransaction, rateTransaction, terminateTransaction } from '@/lib/actions/transactions';
import { textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { SelectField, TextAreaField } from '../ui/field';
import { toast } from '../ui/toast';

/** The reason for cancelling or terminating, sent with the dialog's Idempotency-Key. */
export function EndTransactionForm({
  transactionId,
  kind,
  intentKey,
  onCancel,
  onDone,
}: {
  transactionId: string;
  kind: 'cancel' | 'terminate';
  intentKey: string;
  onCancel: () => void;
  onDone: () => void;
}) {
  const form = useActionForm();
  const bound = form.bind(async (data) => {
    const send = kind === 'cancel' ? cancelTransaction : terminateTransaction;
    const result = await send({ transaction_id: transactionId, idempotency_key: intentKey, reason: textOf(data, 'reason') });
    toast.result(result);
    form.report(result);
    if (result.ok) onDone();
  });
  return (
    <form {...bound} className="space-y-4">
      <TextAreaField label={kind === 'cancel' ? 'Why do you want to cancel?' : 'Why are you ending the transaction?'} name="reason" required error={form.errorOf('reason')} />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Keep the transaction
        </Button>
        <Button type="submit" variant="danger" loading={form.busy}>
          {kind === 'cancel' ? 'Cancel the transaction' : 'End the transaction'}
        </Button>
      </div>
    </form>
  );
}

/** A party's rating of the other once the transaction is completed: 1 to 5 and an optional comment. */
export function RateForm({ transactionId, other, intentKey, onCancel, onDone }: { transactionId: string; other: 'buyer' | 'seller'; intentKey: string; onCancel: () => void; onDone: () => void }) {
  const form = useActionForm();
  const bound = form.bind(async (data) => {
    const comment = textOf(data, 'comment');
    const result = await rateTransaction({ transaction_id: transactionId, idempotency_key: intentKey, score: Number(textOf(data, 'score')), ...(comment ? { comment } : {}) });
    toast.result(result);
    form.report(result);
    if (result.ok) onDone();
  });
  return (
    <form {...bound} className="space-y-4">
      <SelectField label={`How was the ${other}?`} name="score" required defaultValue="" error={form.errorOf('score')}>
        <option value="" disabled>
          Choose 1 to 5 stars
        </option>
        {[5, 4, 3, 2, 1].map((n) => (
          <option key={n} value={n}>
            {'★'.repeat(n)}{'☆'.repeat(5 - n)} ({n} of 5)
          </option>
        ))}
      </SelectField>
      <TextAreaField label="Comment (optional)" name="comment" error={form.errorOf('comment')} />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Not now
        </Button>
        <Button type="submit" loading={form.busy}>
          Send rating
        </Button>
      </div>
    </form>
  );
}
