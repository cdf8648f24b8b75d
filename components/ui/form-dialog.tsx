'use client';

import { Suspense, useState, type ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { useIntentKey } from './intent-key';

export type FormHandlers = { intentKey: string; onCancel: () => void; onDone: () => void };

/**
 * A button opening a lazily loaded form in a dialog. `preload` starts loading the form's code when the
 * button is first pointed at or focused; the dialog keeps its Idempotency-Key until the form succeeds, so
 * a retry is the same intent.
 */
export function FormDialog({
  label,
  variant,
  title,
  description,
  preload,
  onDone,
  children,
}: {
  label: string;
  variant?: 'danger' | 'secondary';
  title: string;
  description: string;
  preload: () => unknown;
  onDone: () => void;
  children: (handlers: FormHandlers) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [key, renewKey] = useIntentKey();
  const handlers: FormHandlers = {
    intentKey: key,
    onCancel: () => setOpen(false),
    onDone: () => {
      setOpen(false);
      renewKey();
      onDone();
    },
  };
  return (
    <>
      <Button variant={variant} onClick={() => setOpen(true)} onPointerEnter={() => void preload()} onFocus={() => void preload()}>
        {label}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={title} description={description}>
        <Suspense fallback={<p className="text-sm text-slate-600">Loading…</p>}>{children(handlers)}</Suspense>
      </Dialog>
    </>
  );
}
