'use client';

import { useId, type Dispatch, type SetStateAction } from 'react';
import { useRouter } from 'next/navigation';
import { deliverMilestone, openDispute, rejectDelivery } from '@/lib/actions/milestones';
import { textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { TextAreaField } from '../ui/field';
import { toast } from '../ui/toast';
import { ProofUpload, UploadHoldHint, uploadedProofs, uploadHold, type ProofUploadItem } from './proof-upload';

/** The body of a milestone dialog (milestone-dialogs.tsx holds the dialog, its key and its files). */
type FormProps = {
  milestoneId: string;
  intentKey: string;
  proofs: ProofUploadItem[];
  onProofs: Dispatch<SetStateAction<ProofUploadItem[]>>;
  onCancel: () => void;
  onDone: () => void;
};

/** Cancel and the submit button; with files, the button waits (and says so) until every file is uploaded. */
function Actions({ onCancel, busy, label, danger = false, proofs }: { onCancel: () => void; busy: boolean; label: string; danger?: boolean; proofs?: ProofUploadItem[] }) {
  const hintId = useId();
  const hold = proofs ? uploadHold(proofs) : null;
  return (
    <div className="space-y-2">
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant={danger ? 'danger' : 'primary'} loading={busy} disabled={hold !== null} aria-describedby={proofs ? hintId : undefined}>
          {label}
        </Button>
      </div>
      {proofs ? <UploadHoldHint id={hintId} hold={hold} /> : null}
    </div>
  );
}

export function DeliverForm({ milestoneId, intentKey, proofs, onProofs, onCancel, onDone }: FormProps) {
  const form = useActionForm();
  const bound = form.bind(async () => {
    // The disabled button stops a click, not a submit made again by requestSubmit (../ui/lazy-form).
    if (uploadHold(proofs)) return;
    const result = await deliverMilestone({ milestone_id: milestoneId, idempotency_key: intentKey, proofs_of_completion: uploadedProofs(proofs).map((p) => p.url) });
    toast.result(result);
    form.report(result);
    if (result.ok) onDone();
  });
  return (
    <form {...bound} className="space-y-4">
      <ProofUpload
        milestoneId={milestoneId}
        label="Proof of delivery"
        value={proofs}
        error={form.errorOf('proofs_of_completion')}
        onChange={(next) => {
          form.clearError('proofs_of_completion');
          onProofs(next);
        }}
      />
      <Actions onCancel={onCancel} busy={form.busy} label="Mark as delivered" proofs={proofs} />
    </form>
  );
}

export function RejectDeliveryForm({ milestoneId, intentKey, proofs, onProofs, onCancel, onDone }: FormProps) {
  const form = useActionForm();
  const bound = form.bind(async (data) => {
    if (uploadHold(proofs)) return;
    const result = await rejectDelivery({
      milestone_id: milestoneId,
      idempotency_key: intentKey,
      rejection_reason: textOf(data, 'rejection_reason'),
      proofs_of_return: uploadedProofs(proofs).map((p) => p.url),
    });
    toast.result(result);
    form.report(result);
    if (result.ok) onDone();
  });
  return (
    <form {...bound} className="space-y-4">
      <TextAreaField label="Why are you rejecting it?" name="rejection_reason" required error={form.errorOf('rejection_reason')} />
      <ProofUpload
        milestoneId={milestoneId}
        label="Proof of return"
        value={proofs}
        error={form.errorOf('proofs_of_return')}
        onChange={(next) => {
          form.clearError('proofs_of_return');
          onProofs(next);
        }}
      />
      <Actions onCancel={onCancel} busy={form.busy} label="Reject and return" danger proofs={proofs} />
    </form>
  );
}

export function OpenDisputeForm({ milestoneId, intentKey, onCancel }: FormProps) {
  const router = useRouter();
  const form = useActionForm();
  const bound = form.bind(async (data) => {
    const result = await openDispute({ milestone_id: milestoneId, idempotency_key: intentKey, description: textOf(data, 'description') });
    toast.result(result);
    form.report(result);
    if (result.ok && result.data) router.push(`/disputes/${result.data.dispute_id}`);
  });
  return (
    <form {...bound} className="space-y-4">
      <TextAreaField label="What is the dispute about?" name="description" required error={form.errorOf('description')} />
      <Actions onCancel={onCancel} busy={form.busy} label="Open dispute" danger />
    </form>
  );
}
