'use client';

import { useState, type ReactNode } from 'react';
import type { ActionResult } from '@/lib/contracts/dashboard';
import { Button, type ButtonProps } from '../ui/button';
import { ConfirmDialog } from '../ui/dialog';
import { useIntentKey } from '../ui/intent-key';
import { toast } from '../ui/toast';

/**
 * A button that asks before it acts: used for every movement of money. The Idempotency-Key is made with the
 * dialog and kept until the action succeeds, so a double click or a retry is one intent.
 */
export function ConfirmAction({
  label,
  title,
  description,
  confirmLabel,
  variant = 'primary',
  size = 'md',
  confirmVariant,
  accessibleLabel,
  run,
  onDone,
}: {
  label: string;
  size?: ButtonProps['size'];
  /** The dialog's button, when it differs from the opener's (a quiet "Remove" in a row, a red one in the dialog). */
  confirmVariant?: ButtonProps['variant'];
  /** The button's name for screen readers when `label` alone is ambiguous (one "Remove" per row). */
  accessibleLabel?: string;
  title: string;
  description: ReactNode;
  confirmLabel?: string;
  variant?: ButtonProps['variant'];
  run: (idempotencyKey: string) => Promise<ActionResult<unknown>>;
  onDone?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [key, renewKey] = useIntentKey();
  async function confirm() {
    setPending(true);
    try {
      const result = await run(key);
      toast.result(result);
      if (result.ok) {
        renewKey();
        setOpen(false);
        onDone?.();
      }
    } catch {
      toast.error('The request did not go through. Check your connection and try again.');
    } finally {
      setPending(false);
    }
  }
  return (
    <>
      <Button variant={variant} size={size} aria-label={accessibleLabel} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <ConfirmDialog
        open={open}
        sending={pending}
        onCancel={() => setOpen(false)}
        onConfirm={confirm}
        title={title}
        description={description}
        confirmLabel={confirmLabel ?? label}
        variant={confirmVariant ?? variant}
      />
    </>
  );
}
