'use client';

import { useEffect, useState } from 'react';
import { addMoneyByCard } from '@/lib/actions/wallet';
import { numberOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { useIntentKey } from '../ui/intent-key';
import { toast } from '../ui/toast';
import { NairaField } from './naira-field';

/**
 * "Add money by card" (docs/decisions.md §16): the amount, then the payment page (the sandbox's, or Paystack's), which
 * sends the browser back to the Wallet page with the payment's reference. Nothing is charged until the card is.
 */
export function CardTopUpForm() {
  const form = useActionForm();
  const [key, renewKey] = useIntentKey();
  const [leaving, setLeaving] = useState(false);
  // Back from the payment page by the browser's Back button, the page is shown again as it was left: ready again.
  useEffect(() => {
    const shown = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener('pageshow', shown);
    return () => window.removeEventListener('pageshow', shown);
  }, []);
  const bound = form.bind(async (data) => {
    const result = await addMoneyByCard({ amount: numberOf(data, 'amount'), idempotency_key: key });
    if (!result.ok || !result.data) {
      toast.result(result);
      form.report(result);
      return;
    }
    // Another payment from the same page, after coming back, is a new intent, not a repeat of this one.
    renewKey();
    setLeaving(true);
    window.location.assign(result.data.authorization_url);
  });
  return (
    <form {...bound} className="flex flex-wrap items-end gap-3" aria-label="Add money by card">
      <NairaField
        label="Amount (₦)"
        name="amount"
        className="min-w-40 flex-1"
        error={form.errorOf('amount')}
      />
      <Button type="submit" loading={form.busy || leaving}>
        Pay by card
      </Button>
    </form>
  );
}
