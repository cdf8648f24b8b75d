'use client';

import { useRouter } from 'next/navigation';
import { deliverMilestone, openDispute, rejectDelivery } from '@/app/(dashboard)/transactions/actions';
import { textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { TextAreaField } from '../ui/field';
import { toast } from '../ui/toast';
import { ProofUpload, type UploadedProof } from './proof-upload';

/** The body of a milestone dialog (milestone-dialogs.tsx holds the dialog, its key and its files). */
type FormProps = {
  milestoneId: string;
  intentKey: string;
  proofs: UploadedProof[];
  onProofs: (next: UploadedProof[]) => void;
  onCancel: () => void;
  onDone: () => void;
};

function Actions({ onCancel, busy, label, danger = false }: { onCancel: () => void; busy: boolean; label: string; danger?: boolean }) {
  return (
    <div className="flex justify-end gap-2">
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" variant={danger ? 'danger' : 'primary'} loading={busy}>
        {label}
      </Button>
    </div>
  );
}

export function DeliverForm({ milestoneId, intentKey, proofs, onProofs, onCancel, onDone }: FormProps) {
  const form = useActionForm();
  const bound = form.bind(async () => {
    const result = await deliverMilestone({ milestone_id: milestoneId, idempotency_key: intentKey, proofs_of_completion: proofs.map((p) => p.url) });
    toast.result(result);
    form.report(result);
    if (result.ok) onDone();
  });
  return (
    <form {...bound} className="space-y-4">
      <ProofUpload milestoneId={milestoneId} label="Proof of delivery" value={proofs} error={form.errorOf('proofs_of_completion')} onChange={onProofs} />
      <Actions onCancel={onCancel} busy={form.busy} label="Mark as delivered" />
    </form>
  );
}

export function RejectDeliveryForm({ milestoneId, intentKey, proofs, onProofs, onCancel, onDone }: FormProps) {
  const form = useActionForm();
  const bound = form.bind(async (data) => {
    const result = await rejectDelivery({
      milestone_id: milestoneId,
      idempotency_key: intentKey,
      rejection_reason: textOf(data, 'rejection_reason'),
      proofs_of_return: proofs.map((p) => p.url),
    });
    toast.result(result);
    form.report(result);
    if (result.ok) onDone();
  });
  return (
    <form {...bound} className="space-y-4">
      <TextAreaField label="Why are you rejecting it?" name="rejection_reason" required error={form.errorOf('rejection_reason')} />
      <ProofUpload milestoneId={milestoneId} label="Proof of return" value={proofs} error={form.errorOf('proofs_of_return')} onChange={onProofs} />
      <Actions onCancel={onCancel} busy={form.busy} label="Reject and return" danger />
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
