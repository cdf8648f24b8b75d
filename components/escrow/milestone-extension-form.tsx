'use client';

import { requestExtension } from '@/lib/actions/milestones';
import { textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { TextAreaField, TextField } from '../ui/field';
import { toast } from '../ui/toast';

/** The seller's request for a later due date: the day it asks for and why, sent with the dialog's Idempotency-Key. */
export function ExtensionForm({ milestoneId, earliestDay, intentKey, onCancel, onDone }: { milestoneId: string; earliestDay: string; intentKey: string; onCancel: () => void; onDone: () => void }) {
  const form = useActionForm();
  const bound = form.bind(async (data) => {
    const result = await requestExtension({ milestone_id: milestoneId, idempotency_key: intentKey, due_day: textOf(data, 'due_day'), reason: textOf(data, 'reason') });
    toast.result(result);
    form.report(result);
    if (result.ok) onDone();
  });
  return (
    <form {...bound} className="space-y-4">
      <TextField
        label="New due date"
        name="due_day"
        type="date"
        min={earliestDay}
        data-range-error="Choose a later day: after the current due date, and not in the past"
        required
        error={form.errorOf('due_day')}
      />
      <TextAreaField label="Why do you need more time?" name="reason" required error={form.errorOf('reason')} />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Keep the date
        </Button>
        <Button type="submit" loading={form.busy}>
          Ask the buyer
        </Button>
      </div>
    </form>
  );
}
