import type { CheckoutOutcome } from '@/lib/contracts/dashboard';
import { cn } from '../ui/cn';
import { naira } from './format';

/** What the buyer reads on coming back from the payment page, by what the API says became of the checkout. */
function words(outcome: CheckoutOutcome): { tone: 'good' | 'warn' | 'bad'; title: string; detail?: string } {
  if (outcome.kind === 'missing') return { tone: 'bad', title: 'We could not find that payment.', detail: 'Nothing on this page changed. If you paid, the money shows in your wallet once it is confirmed.' };
  const what = outcome.milestoneTitle ? `“${outcome.milestoneTitle}”` : 'the milestone';
  const paid = `Your card payment of ${naira(outcome.amount)}`;
  switch (outcome.status) {
    case 'PAID':
      return outcome.applied
        ? { tone: 'good', title: `${paid} went through: ${what} is funded.` }
        : {
            tone: 'warn',
            title: `${paid} went through, but it did not fund ${what}.`,
            detail: `${outcome.notAppliedReason ? `${outcome.notAppliedReason.replace(/\.?$/, '.')} ` : ''}The money is in your wallet.`,
          };
    case 'FAILED':
      return { tone: 'bad', title: `${paid} was declined.`, detail: `${outcome.failureReason ? `${outcome.failureReason.replace(/\.?$/, '.')} ` : ''}Nothing was charged; ${what} is still waiting to be funded.` };
    case 'EXPIRED':
      return { tone: 'bad', title: 'The payment page expired before the payment was made.', detail: `Nothing was charged; ${what} is still waiting to be funded.` };
    default:
      return { tone: 'warn', title: `${paid} is waiting for the payment provider’s confirmation.`, detail: `${what} shows as funded once it is confirmed.` };
  }
}

const TONE = { good: 'border-emerald-200 bg-emerald-50 text-emerald-950', warn: 'border-amber-200 bg-amber-50 text-amber-950', bad: 'border-rose-200 bg-rose-50 text-rose-950' };

export function CheckoutOutcomeNote({ outcome }: { outcome: CheckoutOutcome }) {
  const said = words(outcome);
  return (
    <div role="status" data-testid="checkout-outcome" className={cn('mb-6 rounded-lg border px-4 py-3 text-sm', TONE[said.tone])}>
      <p className="font-medium">{said.title}</p>
      {said.detail ? <p className="mt-1">{said.detail}</p> : null}
    </div>
  );
}
