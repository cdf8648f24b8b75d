import type { ReactNode } from 'react';
import type { Checkout } from '@/lib/contracts/dashboard-statements';
import { cn } from '../ui/cn';
import { naira } from './format';

/**
 * How the card payment the browser came back from went (docs/decisions.md §16), as the API says, never the return
 * alone: paid (with the wallet's balance now), declined, expired, or still being confirmed.
 */
export function TopUpOutcome({ checkout, balance }: { checkout: Checkout | null; balance: number }) {
  if (!checkout) {
    return (
      <Message tone="red" status="UNKNOWN">
        That card payment was not found among yours. Nothing was added to your wallet by it.
      </Message>
    );
  }
  const amount = naira(checkout.amount);
  switch (checkout.status) {
    case 'PAID':
      return (
        <Message tone="green" status="PAID">
          Your card payment of {amount} is in your wallet. Your balance is now <strong data-testid="top-up-balance">{naira(balance)}</strong>.
        </Message>
      );
    case 'FAILED':
      return (
        <Message tone="red" status="FAILED">
          Your card payment of {amount} was declined{checkout.failure_reason ? `: ${checkout.failure_reason}` : ''}. Nothing was added to your wallet.
        </Message>
      );
    case 'EXPIRED':
      return (
        <Message tone="amber" status="EXPIRED">
          Your card payment of {amount} expired before it was made. Nothing was added to your wallet: start again to add money.
        </Message>
      );
    default:
      return (
        <Message tone="grey" status="PENDING">
          Your card payment of {amount} is waiting for the payment provider to confirm it. Your balance changes once it does: reload this page in a minute.
        </Message>
      );
  }
}

const TONES = { green: 'border-emerald-200 bg-emerald-50 text-emerald-950', red: 'border-rose-200 bg-rose-50 text-rose-950', amber: 'border-amber-200 bg-amber-50 text-amber-950', grey: 'border-slate-200 bg-slate-50 text-slate-900' };

function Message({ tone, status, children }: { tone: keyof typeof TONES; status: string; children: ReactNode }) {
  return (
    <p role="status" data-testid="top-up-outcome" data-status={status} className={cn('mb-6 rounded-lg border px-4 py-3 text-sm break-words', TONES[tone])}>
      {children}
    </p>
  );
}
