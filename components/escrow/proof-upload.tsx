'use client';

import { useId, useRef, useState } from 'react';
import { newIntentKey } from '../ui/intent-key';
import { Spinner } from '../ui/spinner';
import { toast } from '../ui/toast';

export type UploadedProof = { url: string; filename: string };

const ACCEPT = 'image/*,application/pdf,video/*,audio/*';

/** Uploads each chosen file at once (through the dashboard, which holds the API key) and lists what is attached. */
export function ProofUpload({
  milestoneId,
  disputeId,
  label,
  value,
  onChange,
  error,
}: {
  /** What the file is for: a milestone's delivery or return, or a dispute's evidence. */
  milestoneId?: string;
  disputeId?: string;
  label: string;
  value: UploadedProof[];
  onChange: (next: UploadedProof[]) => void;
  error?: string;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function upload(files: FileList | null) {
    if (!files?.length) return;
    let next = value;
    for (const file of Array.from(files)) {
      setBusy(file.name);
      const form = new FormData();
      form.set('file', file);
      if (disputeId) form.set('dispute_id', disputeId);
      else if (milestoneId) form.set('milestone_id', milestoneId);
      form.set('idempotency_key', newIntentKey());
      try {
        const response = await fetch('/data/uploads', { method: 'POST', body: form });
        const body = (await response.json().catch(() => ({}))) as { message?: string; file?: UploadedProof };
        if (!response.ok || !body.file) {
          toast.error(body.message ?? `${file.name} could not be uploaded.`);
          continue;
        }
        next = [...next, { url: body.file.url, filename: body.file.filename }];
        onChange(next);
      } catch {
        toast.error(`${file.name} could not be uploaded: check your connection.`);
      }
    }
    setBusy(null);
  }

  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        type="file"
        multiple
        accept={ACCEPT}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        aria-invalid={error ? true : undefined}
        // Not `disabled` while uploading: a disabled control loses focus to <body>. It refuses to open instead.
        aria-disabled={busy !== null || undefined}
        onClick={(e) => {
          if (busy !== null) e.preventDefault();
        }}
        ref={input}
        onChange={(e) => {
          if (busy === null) void upload(e.target.files);
          e.target.value = '';
        }}
        className="block w-full text-sm aria-disabled:cursor-wait aria-disabled:opacity-60 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-slate-200"
      />
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        Photos, PDF, video or audio; 10 MB each at most.
      </p>
      {busy ? <Spinner label={`Uploading ${busy}…`} /> : null}
      {value.length > 0 ? (
        <ul aria-label="Attached files" className="space-y-1 text-sm">
          {value.map((proof, i) => (
            <li key={proof.url} className="flex items-center justify-between gap-2 rounded border bg-slate-50 px-2 py-1">
              <span className="truncate">{proof.filename}</span>
              <button
                type="button"
                className="text-xs text-rose-700 underline"
                onClick={() => {
                  onChange(value.filter((_, j) => j !== i));
                  // The button goes with its line: focus goes back to the file control.
                  input.current?.focus();
                }}
                aria-label={`Remove ${proof.filename}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-rose-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
