'use client';

import { useState } from 'react';
import type { ActionResult } from '@/lib/contracts/dashboard';
import { useActionForm } from './action-form';
import { useIntentKey } from './intent-key';
import { toast } from './toast';

/**
 * A form whose submission waits for a confirmation dialog: what was typed is kept in `pending` while the
 * dialog spells it out; `confirm` sends it once with the intent's idempotency key, shows the outcome (a
 * toast, and the contract's refusals under their fields) and, on success, clears the form and starts a new
 * intent before `onSent`. `cancel` closes the dialog unless the send is under way.
 */
export function useConfirmedSubmit<V, R extends ActionResult<unknown>>(a: {
  read: (data: FormData) => V;
  send: (values: V, idempotencyKey: string) => Promise<R>;
  onSent: (result: R) => void;
}) {
  const form = useActionForm();
  const [key, renewKey] = useIntentKey();
  const [pending, setPending] = useState<{ values: V; sending: boolean; form: HTMLFormElement } | null>(null);
  const bound = form.bind((data, el) => setPending({ values: a.read(data), sending: false, form: el }));

  async function confirm() {
    if (!pending) return;
    setPending({ ...pending, sending: true });
    const result = await a.send(pending.values, key);
    toast.result(result);
    form.report(result);
    setPending(null);
    if (!result.ok) return;
    pending.form.reset();
    renewKey();
    a.onSent(result);
  }

  return {
    form,
    bound,
    pending: pending?.values ?? null,
    sending: pending?.sending ?? false,
    confirm,
    cancel: () => {
      if (!pending?.sending) setPending(null);
    },
  };
}
