'use client';

import { Suspense, useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { Button, type ButtonProps } from './button';
import { Spinner } from './spinner';
import { toastLayer } from './toast';

/**
 * The native <dialog> in modal mode: focus moves in and is trapped, Escape closes it, the page behind is
 * inert, and focus returns to the opener, all done by the browser. Focus starts on the element marked
 * `data-autofocus` when there is one (a confirmation's confirming button), else on the first focusable
 * one (a form's first field). Toasts raised while it is open show above it (./toast). Content loaded on
 * opening (React.lazy) shows a spinner until it arrives.
 */
export function Dialog({ open, onClose, title, description, children }: { open: boolean; onClose: () => void; title: string; description?: ReactNode; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  // Two dialogs may be open at once (signing in again over a form's dialog): each names its own title.
  const titleId = useId();
  // Layout effects: the dialog closes in the same commit that takes its content away, so the browser hands
  // focus back to the opener before anything can see it on <body>.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open) {
      if (!dialog.open) {
        dialog.showModal();
        dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
      }
      toastLayer.enter(dialog);
    } else {
      if (dialog.open) dialog.close();
      toastLayer.leave(dialog);
    }
  }, [open]);
  useLayoutEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog) toastLayer.leave(dialog);
    };
  }, []);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      aria-labelledby={titleId}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border bg-white p-0 text-left text-slate-900 shadow-xl backdrop:bg-slate-900/40"
    >
      {open ? (
        <div className="p-5">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          {description ? <div className="mt-1 text-sm text-slate-600">{description}</div> : null}
          <div className="mt-4">
            <Suspense fallback={<Spinner label="Loading…" />}>{children}</Suspense>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}

/**
 * A question before an action: Cancel and the confirming button, which has the focus on opening. While the
 * action is being sent the dialog stays open and Cancel is disabled.
 */
export function ConfirmDialog({
  open,
  sending,
  onCancel,
  onConfirm,
  title,
  description,
  confirmLabel,
  variant = 'primary',
}: {
  open: boolean;
  sending: boolean;
  onCancel: () => void;
  onConfirm: () => unknown;
  title: string;
  description?: ReactNode;
  confirmLabel: string;
  variant?: ButtonProps['variant'];
}) {
  return (
    <Dialog open={open} onClose={() => !sending && onCancel()} title={title} description={description}>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel} disabled={sending}>
          Cancel
        </Button>
        {/* Focused on opening: Enter in the form that asked confirms, so a second Enter does not cancel. */}
        <Button variant={variant} onClick={() => void onConfirm()} loading={sending} data-autofocus>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
