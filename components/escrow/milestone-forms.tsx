'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { deliverMilestone, openDispute, rejectDelivery } from '@/app/(dashboard)/transactions/actions';
import { textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { TextAreaField } from '../ui/field';
import { useIntentKey } from '../ui/intent-key';
import { useToast } from '../ui/toast';
import { naira } from './money';
import { ProofUpload, type UploadedProof } from './proof-upload';

type Props = { milestoneId: string; amount: number; onDone: () => void };

function useDialog() {
  const [open, setOpen] = useState(false);
  return { open, show: () => setOpen(true), hide: () => setOpen(false) };
}

export function DeliverDialog({ milestoneId, onDone }: Props) {
  const dialog = useDialog();
  const toast = useToast();
  const form = useActionForm();
  const [key, renewKey] = useIntentKey();
  const [proofs, setProofs] = useState<UploadedProof[]>([]);
  const bound = form.bind(async () => {
    const result = await deliverMilestone({ milestone_id: milestoneId, idempotency_key: key, proofs_of_completion: proofs.map((p) => p.url) });
    toast.result(result);
    form.report(result);
    if (result.ok) {
      dialog.hide();
      setProofs([]);
      renewKey();
      onDone();
    }
  });
  return (
    <>
      <Button onClick={dialog.show}>Deliver with proof</Button>
      <Dialog open={dialog.open} onClose={dialog.hide} title="Deliver this milestone" description="Attach proof of delivery (a waybill, photos, a signed note). The buyer then inspects it.">
        <form {...bound} className="space-y-4">
          <ProofUpload milestoneId={milestoneId} label="Proof of delivery" value={proofs} error={form.errorOf('proofs_of_completion')} onChange={setProofs} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={dialog.hide}>
              Cancel
            </Button>
            <Button type="submit" loading={form.busy}>
              Mark as delivered
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

export function RejectDeliveryDialog({ milestoneId, amount, onDone }: Props) {
  const dialog = useDialog();
  const toast = useToast();
  const form = useActionForm();
  const [key, renewKey] = useIntentKey();
  const [proofs, setProofs] = useState<UploadedProof[]>([]);
  const bound = form.bind(async (data, el) => {
    const result = await rejectDelivery({
      milestone_id: milestoneId,
      idempotency_key: key,
      rejection_reason: textOf(data, 'rejection_reason'),
      proofs_of_return: proofs.map((p) => p.url),
    });
    toast.result(result);
    form.report(result);
    if (result.ok) {
      dialog.hide();
      setProofs([]);
      el.reset();
      renewKey();
      onDone();
    }
  });
  return (
    <>
      <Button variant="danger" onClick={dialog.show}>
        Reject delivery
      </Button>
      <Dialog
        open={dialog.open}
        onClose={dialog.hide}
        title="Reject this delivery"
        description={`The ${naira(amount)} stays in escrow. The seller has 7 days to approve the return (you are refunded) or reject it.`}
      >
        <form {...bound} className="space-y-4">
          <TextAreaField label="Why are you rejecting it?" name="rejection_reason" required error={form.errorOf('rejection_reason')} />
          <ProofUpload milestoneId={milestoneId} label="Proof of return" value={proofs} error={form.errorOf('proofs_of_return')} onChange={setProofs} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={dialog.hide}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" loading={form.busy}>
              Reject and return
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

export function OpenDisputeDialog({ milestoneId, amount }: Props) {
  const dialog = useDialog();
  const toast = useToast();
  const router = useRouter();
  const form = useActionForm();
  const [key] = useIntentKey();
  const bound = form.bind(async (data) => {
    const result = await openDispute({ milestone_id: milestoneId, idempotency_key: key, description: textOf(data, 'description') });
    toast.result(result);
    form.report(result);
    if (result.ok && result.data) router.push(`/disputes/${result.data.dispute_id}`);
  });
  return (
    <>
      <Button variant="danger" onClick={dialog.show}>
        Open a dispute
      </Button>
      <Dialog
        open={dialog.open}
        onClose={dialog.hide}
        title="Open a dispute"
        description={`Mediation runs for 3 business days: you propose how much of the ${naira(amount)} held you should receive, and the buyer answers.`}
      >
        <form {...bound} className="space-y-4">
          <TextAreaField label="What is the dispute about?" name="description" required error={form.errorOf('description')} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={dialog.hide}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" loading={form.busy}>
              Open dispute
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
