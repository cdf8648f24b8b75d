'use client';

import { useId, useRef, type Dispatch, type SetStateAction } from 'react';
import { newIntentKey } from '../ui/intent-key';
import { sessionEnded } from '../ui/session-ended';
import { Spinner } from '../ui/spinner';

export type UploadedProof = { url: string; filename: string };

/**
 * One chosen file and how its upload stands. The File is kept so a failed upload can be tried again; the
 * list lives with the form's owner (a dialog keeps it while closed), so an upload that ends after the
 * dialog closed still lands in it.
 */
export type ProofUploadItem =
  | { key: string; file: File; state: 'uploading' }
  | { key: string; file: File; state: 'failed'; error: string }
  | { key: string; file: File; state: 'uploaded'; proof: UploadedProof };

/** The files uploaded so far: what a form sends. */
export const uploadedProofs = (items: readonly ProofUploadItem[]): UploadedProof[] =>
  items.flatMap((item) => (item.state === 'uploaded' ? [item.proof] : []));

/**
 * Why a form with these files may not be sent yet (issue #27): a file still uploading would be left out
 * (and the API then says no proof was given), and a failed one would be dropped without a word.
 */
export function uploadHold(items: readonly ProofUploadItem[]): string | null {
  if (items.some((item) => item.state === 'uploading')) return 'Waiting for the upload…';
  if (items.some((item) => item.state === 'failed')) return 'A file did not upload: try it again or remove it.';
  return null;
}

/** The line beside a form's submit button saying why it is disabled; `id` is the button's aria-describedby. */
export function UploadHoldHint({ id, hold }: { id: string; hold: string | null }) {
  return (
    <p id={id} role="status" className="text-sm text-slate-600">
      {hold}
    </p>
  );
}

const ACCEPT = 'image/*,application/pdf,video/*,audio/*';

/** Uploads each chosen file at once (through the dashboard, which holds the API key) and lists each with how it stands. */
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
  value: ProofUploadItem[];
  onChange: Dispatch<SetStateAction<ProofUploadItem[]>>;
  error?: string;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const update = (key: string, next: ProofUploadItem) => onChange((items) => items.map((item) => (item.key === key ? next : item)));

  async function upload(key: string, file: File) {
    const form = new FormData();
    form.set('file', file);
    if (disputeId) form.set('dispute_id', disputeId);
    else if (milestoneId) form.set('milestone_id', milestoneId);
    // A key per attempt: a retry after a failure is sent afresh rather than answered with the failure again.
    form.set('idempotency_key', newIntentKey());
    try {
      const response = await fetch('/data/uploads', { method: 'POST', body: form });
      const body = (await response.json().catch(() => ({}))) as { message?: string; file?: UploadedProof };
      if (response.status === 401) {
        update(key, { key, file, state: 'failed', error: 'You were signed out, so it was not uploaded: sign in again, then try it again.' });
        sessionEnded.signal();
        return;
      }
      if (!response.ok || !body.file) {
        update(key, { key, file, state: 'failed', error: body.message ?? 'It could not be uploaded.' });
        return;
      }
      update(key, { key, file, state: 'uploaded', proof: { url: body.file.url, filename: body.file.filename } });
    } catch {
      update(key, { key, file, state: 'failed', error: 'It could not be uploaded: check your connection.' });
    }
  }

  function choose(files: FileList | null) {
    const chosen = Array.from(files ?? [], (file) => ({ key: newIntentKey(), file, state: 'uploading' as const }));
    if (!chosen.length) return;
    onChange((items) => [...items, ...chosen]);
    for (const item of chosen) void upload(item.key, item.file);
  }

  function retry(item: ProofUploadItem) {
    update(item.key, { key: item.key, file: item.file, state: 'uploading' });
    void upload(item.key, item.file);
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
        ref={input}
        onChange={(e) => {
          choose(e.target.files);
          e.target.value = '';
        }}
        className="block w-full text-sm aria-disabled:cursor-wait aria-disabled:opacity-60 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-slate-200"
      />
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        Photos, PDF, video or audio; 10 MB each at most.
      </p>
      {value.length > 0 ? (
        <ul aria-label="Attached files" className="space-y-1 text-sm">
          {value.map((item) => (
            <li
              key={item.key}
              data-upload={item.state}
              className={`rounded border px-2 py-1 ${item.state === 'failed' ? 'border-rose-300 bg-rose-50' : 'bg-slate-50'}`}
            >
              <div className="flex items-center justify-between gap-2">
                <span className="truncate">{item.file.name}</span>
                <span className="flex shrink-0 items-center gap-3">
                  {item.state === 'uploading' ? <Spinner label="Uploading…" /> : null}
                  {item.state === 'failed' ? (
                    <button type="button" className="text-xs text-slate-800 underline" onClick={() => retry(item)} aria-label={`Try ${item.file.name} again`}>
                      Try again
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="text-xs text-rose-700 underline"
                    onClick={() => {
                      onChange((items) => items.filter((other) => other.key !== item.key));
                      // The button goes with its line: focus goes back to the file control.
                      input.current?.focus();
                    }}
                    aria-label={`Remove ${item.file.name}`}
                  >
                    Remove
                  </button>
                </span>
              </div>
              {item.state === 'failed' ? (
                <p role="alert" className="text-xs text-rose-700">
                  {item.error}
                </p>
              ) : null}
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
