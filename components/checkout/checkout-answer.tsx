'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { answerCheckout } from '@/lib/actions/checkout-page';

/** The sandbox page's Pay and Decline: the browser then goes to callback_url?reference=…, or the page shows the outcome. */
export function CheckoutAnswer({ reference }: { reference: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [chosen, setChosen] = useState<'pay' | 'decline' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const answer = (choice: 'pay' | 'decline') => {
    setChosen(choice);
    setError(null);
    startTransition(async () => {
      const result = await answerCheckout({ reference, answer: choice });
      if (!result.ok) {
        setError(result.message);
        router.refresh();
        return;
      }
      // A full navigation: callback_url is the merchant's page, usually on another origin.
      if (result.returnTo) window.location.assign(result.returnTo);
      else router.refresh();
    });
  };

  return (
    <div className="mt-5">
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button className="w-full sm:flex-1" onClick={() => answer('pay')} loading={pending && chosen === 'pay'} disabled={pending && chosen !== 'pay'}>
          Pay
        </Button>
        <Button className="w-full sm:flex-1" variant="secondary" onClick={() => answer('decline')} loading={pending && chosen === 'decline'} disabled={pending && chosen !== 'decline'}>
          Decline
        </Button>
      </div>
      {error ? (
        <p role="alert" className="mt-3 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-900">
          {error}
        </p>
      ) : null}
    </div>
  );
}
