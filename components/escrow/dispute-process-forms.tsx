'use client';

import { useId, useState } from 'react';
import { submitEvidence } from '@/lib/actions/disputes';
import type { Dispute } from '@/lib/contracts/dashboard';
import { textOf } from '../ui/action-form';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/dialog';
import { TextAreaField } from '../ui/field';
import { useConfirmedSubmit } from '../ui/confirmed-submit';
import { DeadlineCountdown } from './deadline-countdown';
import { ProofUpload, UploadHoldHint, uploadedProofs, uploadHold, type ProofUploadItem } from './proof-upload';

/**
 * The party's evidence: a written account and files, sent once it is confirmed. The window's deadline (the
 * API's evidence_submission deadline) counts down beside the form; the API refuses anything after it.
 */
export function EvidenceForm({ dispute, onDone }: { dispute: Dispute; onDone: () => void }) {
  const [files, setFiles] = useState<ProofUploadItem[]>([]);
  const hold = uploadHold(files);
  const hintId = useId();
  const uploaded = uploadedProofs(files);
  const evidenceWindow = dispute.deadlines.find((d) => d.name === 'evidence_submission');
  const flow = useConfirmedSubmit({
    read: (data) => textOf(data, 'text'),
    send: (text, key) => submitEvidence({ dispute_id: dispute.id, idempotency_key: key, text, files: uploaded.map((f) => f.url) }),
    onSent: () => {
      setFiles([]);
      onDone();
    },
  });
  const { form } = flow;
  return (
    <form
      {...flow.bound}
      onSubmit={(event) => {
        // The disabled button stops a click, not a submit made again by requestSubmit (../ui/lazy-form).
        if (hold) event.preventDefault();
        else return flow.bound.onSubmit(event);
      }}
      className="space-y-4"
      aria-label="Submit evidence"
    >
      <h3 className="font-semibold text-slate-900">Submit your evidence</h3>
      {evidenceWindow ? <DeadlineCountdown deadline={evidenceWindow} /> : null}
      <TextAreaField
        label="Your account of what happened"
        name="text"
        required
        hint="The dispute team reads both sides. Say what was agreed, what was delivered or returned, and what you ask for."
        rows={5}
        error={form.errorOf('text')}
      />
      <ProofUpload
        disputeId={dispute.id}
        label="Files (photos, documents, recordings)"
        value={files}
        error={form.errorOf('files')}
        onChange={(next) => {
          form.clearError('files');
          setFiles(next);
        }}
      />
      <div className="flex flex-col items-end gap-2">
        <Button type="submit" disabled={hold !== null} aria-describedby={hintId}>
          Submit evidence
        </Button>
        <UploadHoldHint id={hintId} hold={hold} />
      </div>
      <ConfirmDialog
        open={flow.pending !== null}
        sending={flow.sending}
        onCancel={flow.cancel}
        onConfirm={flow.confirm}
        title="Send this evidence?"
        description={`Your account${uploaded.length ? ` and ${uploaded.length} file${uploaded.length === 1 ? '' : 's'}` : ''} go to the dispute team and the other party can read it.`}
        confirmLabel="Send evidence"
      />
    </form>
  );
}
