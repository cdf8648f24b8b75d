'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { cancelDispute, submitEvidence } from '@/app/(dashboard)/disputes/actions';
import type { Dispute } from '@/lib/contracts/dashboard';
import { CancelDisputeInput, SubmitEvidenceInput } from '@/lib/contracts/dashboard-disputes';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { TextAreaField } from '../ui/field';
import { newIntentKey } from '../ui/intent-key';
import { useToast } from '../ui/toast';
import { DeadlineCountdown } from './deadline-countdown';
import { naira } from './money';
import { ProofUpload, type UploadedProof } from './proof-upload';

const firstError = (e: unknown) => (e as { message?: string } | undefined)?.message;

/**
 * The party's evidence: a written account and files, sent once it is confirmed. The window's deadline (the
 * API's evidence_submission deadline) counts down beside the form; the API refuses anything after it.
 */
export function EvidenceForm({ dispute, onDone }: { dispute: Dispute; onDone: () => void }) {
  const toast = useToast();
  const [files, setFiles] = useState<UploadedProof[]>([]);
  const [confirming, setConfirming] = useState(false);
  const blank = () => ({ dispute_id: dispute.id, idempotency_key: newIntentKey(), text: '', files: [] as string[] });
  const form = useForm({ resolver: zodResolver(SubmitEvidenceInput), defaultValues: blank() });
  const evidenceWindow = dispute.deadlines.find((d) => d.name === 'evidence_submission');
  const onSubmit = form.handleSubmit(() => setConfirming(true));
  async function send() {
    const result = await submitEvidence(form.getValues());
    toast.result(result);
    if (result.ok) {
      setConfirming(false);
      setFiles([]);
      form.reset(blank());
      onDone();
    }
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Submit evidence">
      <h3 className="font-semibold text-slate-900">Submit your evidence</h3>
      {evidenceWindow ? <DeadlineCountdown deadline={evidenceWindow} /> : null}
      <TextAreaField
        label="Your account of what happened"
        hint="The dispute team reads both sides. Say what was agreed, what was delivered or returned, and what you ask for."
        rows={5}
        error={form.formState.errors.text?.message}
        {...form.register('text')}
      />
      <ProofUpload
        disputeId={dispute.id}
        label="Files (photos, documents, recordings)"
        value={files}
        error={firstError(form.formState.errors.files)}
        onChange={(next) => {
          setFiles(next);
          form.setValue('files', next.map((f) => f.url), { shouldValidate: form.formState.isSubmitted });
        }}
      />
      <div className="flex justify-end">
        <Button type="submit">Submit evidence</Button>
      </div>
      <Dialog
        open={confirming}
        onClose={() => !form.formState.isSubmitting && setConfirming(false)}
        title="Send this evidence?"
        description={`Your account${files.length ? ` and ${files.length} file${files.length === 1 ? '' : 's'}` : ''} go to the dispute team and the other party can read it.`}
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button onClick={() => void form.handleSubmit(send)()} loading={form.formState.isSubmitting}>
            Send evidence
          </Button>
        </div>
      </Dialog>
    </form>
  );
}

/** The seller withdraws: everything held goes back to the buyer. Asked twice, since it cannot be undone. */
export function WithdrawDisputeDialog({ dispute, onDone }: { dispute: Dispute; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const toast = useToast();
  const blank = () => ({ dispute_id: dispute.id, idempotency_key: newIntentKey(), cancellation_agreement_details: '' });
  const form = useForm({ resolver: zodResolver(CancelDisputeInput), defaultValues: blank() });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await cancelDispute(values);
    toast.result(result);
    if (result.ok) {
      setOpen(false);
      form.reset(blank());
      onDone();
    }
  });
  const held = dispute.milestone.milestone_escrow.balance;
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Withdraw dispute
      </Button>
      <Dialog
        open={open}
        onClose={() => !form.formState.isSubmitting && setOpen(false)}
        title="Withdraw this dispute?"
        description={`The dispute ends and all ${naira(held)} held is refunded to the buyer. This cannot be undone.`}
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <TextAreaField
            label="What was agreed"
            hint="Recorded with the dispute, for both of you."
            error={form.formState.errors.cancellation_agreement_details?.message}
            {...form.register('cancellation_agreement_details')}
          />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={form.formState.isSubmitting}>
              Keep the dispute
            </Button>
            <Button type="submit" variant="danger" loading={form.formState.isSubmitting}>
              Withdraw and refund the buyer
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
