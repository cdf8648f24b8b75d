'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { deliverMilestone, openDispute, rejectDelivery } from '@/app/(dashboard)/transactions/actions';
import { DeliverInput, OpenDisputeInput, RejectDeliveryInput } from '@/lib/contracts/dashboard';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { TextAreaField } from '../ui/field';
import { newIntentKey } from '../ui/intent-key';
import { useToast } from '../ui/toast';
import { naira } from './money';
import { ProofUpload, type UploadedProof } from './proof-upload';

type Props = { milestoneId: string; amount: number; onDone: () => void };

function useDialog() {
  const [open, setOpen] = useState(false);
  return { open, show: () => setOpen(true), hide: () => setOpen(false) };
}

const firstError = (e: unknown) => (e as { message?: string } | undefined)?.message;

export function DeliverDialog({ milestoneId, onDone }: Props) {
  const dialog = useDialog();
  const toast = useToast();
  const [proofs, setProofs] = useState<UploadedProof[]>([]);
  const form = useForm({
    resolver: zodResolver(DeliverInput),
    defaultValues: { milestone_id: milestoneId, idempotency_key: newIntentKey(), proofs_of_completion: [] as string[] },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await deliverMilestone(values);
    toast.result(result);
    if (result.ok) {
      dialog.hide();
      setProofs([]);
      form.reset({ milestone_id: milestoneId, idempotency_key: newIntentKey(), proofs_of_completion: [] });
      onDone();
    }
  });
  return (
    <>
      <Button onClick={dialog.show}>Deliver with proof</Button>
      <Dialog open={dialog.open} onClose={dialog.hide} title="Deliver this milestone" description="Attach proof of delivery (a waybill, photos, a signed note). The buyer then inspects it.">
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <ProofUpload
            milestoneId={milestoneId}
            label="Proof of delivery"
            value={proofs}
            error={firstError(form.formState.errors.proofs_of_completion)}
            onChange={(next) => {
              setProofs(next);
              form.setValue('proofs_of_completion', next.map((p) => p.url), { shouldValidate: form.formState.isSubmitted });
            }}
          />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={dialog.hide}>
              Cancel
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
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
  const [proofs, setProofs] = useState<UploadedProof[]>([]);
  const form = useForm({
    resolver: zodResolver(RejectDeliveryInput),
    defaultValues: { milestone_id: milestoneId, idempotency_key: newIntentKey(), rejection_reason: '', proofs_of_return: [] as string[] },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await rejectDelivery(values);
    toast.result(result);
    if (result.ok) {
      dialog.hide();
      setProofs([]);
      form.reset({ milestone_id: milestoneId, idempotency_key: newIntentKey(), rejection_reason: '', proofs_of_return: [] });
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
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <TextAreaField label="Why are you rejecting it?" error={form.formState.errors.rejection_reason?.message} {...form.register('rejection_reason')} />
          <ProofUpload
            milestoneId={milestoneId}
            label="Proof of return"
            value={proofs}
            error={firstError(form.formState.errors.proofs_of_return)}
            onChange={(next) => {
              setProofs(next);
              form.setValue('proofs_of_return', next.map((p) => p.url), { shouldValidate: form.formState.isSubmitted });
            }}
          />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={dialog.hide}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" loading={form.formState.isSubmitting}>
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
  const form = useForm({
    resolver: zodResolver(OpenDisputeInput),
    defaultValues: { milestone_id: milestoneId, idempotency_key: newIntentKey(), description: '' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await openDispute(values);
    toast.result(result);
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
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <TextAreaField label="What is the dispute about?" error={form.formState.errors.description?.message} {...form.register('description')} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={dialog.hide}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" loading={form.formState.isSubmitting}>
              Open dispute
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
