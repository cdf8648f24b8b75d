'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';
import { declinePartialAcceptance, proposePartialAcceptance, refundMilestone } from '@/lib/actions/milestones';
import type { ActionResult, MilestoneInTransaction } from '@/lib/contracts/dashboard';
import { numberOf, textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { TextAreaField } from '../ui/field';
import type { FormHandlers } from '../ui/form-dialog';
import { toast } from '../ui/toast';
import { naira } from './format';
import { heldPrice, refundSplit } from './money';
import { NairaField } from './naira-field';
import { partialSplit } from './partial-money';

/**
 * The forms of refunds and partial acceptance (docs/decisions.md §17), each inside a FormDialog. Money-moving ones
 * take two steps in the dialog: the form, then what each side gets in naira with the confirming button.
 */

type Amounts = { amount: number; reason: string };

/** A whole number of kobo, more than 0 and within the bounds: what lib/escrow can split. */
const fits = (n: number | undefined, max: number): n is number => n !== undefined && Number.isFinite(n) && n > 0 && n <= max && Math.abs(Math.round(n * 100) - n * 100) < 1e-6;

function PartialWords({ release, milestone }: { release: number; milestone: MilestoneInTransaction }) {
  const split = partialSplit(release, milestone);
  return (
    <ul className="list-disc space-y-1 pl-5" data-testid="partial-split">
      <li>
        The seller receives <strong>{naira(split.toSeller)}</strong>
        {split.sellerFeeShare > 0 ? ` (${naira(release)} less ${naira(split.sellerFeeShare)} of the fee)` : ''}.
      </li>
      <li>
        The fee charged is <strong>{naira(split.fee)}</strong> (of {naira(milestone.milestone_fee)} agreed).
      </li>
      <li>
        <strong>{naira(split.toBuyer)}</strong> comes back to your wallet.
      </li>
    </ul>
  );
}

function RefundWords({ amount, milestone }: { amount: number; milestone: MilestoneInTransaction }) {
  const split = refundSplit(amount, milestone);
  return (
    <p data-testid="refund-split">
      <strong>{naira(split.toBuyer)}</strong> goes back to the buyer’s wallet
      {split.feeShare > 0 ? ` (${naira(amount)} and ${naira(split.feeShare)} of the fee the buyer prepaid on it)` : ''}.{' '}
      {split.everything ? 'That is everything held: the milestone ends refunded.' : `${naira(Math.round((heldPrice(milestone) - amount) * 100) / 100)} of the price stays held.`}
    </p>
  );
}

/**
 * The form, then the review step: the form stays mounted (hidden) while its amounts are reviewed, so going back, or
 * a refusal, finds what was typed, with the refusal under its field.
 */
function useReviewed(a: { field: 'amount' | 'release_amount'; send: (values: Amounts) => Promise<ActionResult>; onDone: () => void }) {
  const form = useActionForm();
  const [review, setReview] = useState<Amounts | null>(null);
  const [sending, setSending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const back = (field?: string) => {
    setReview(null);
    // After the form is shown again: focus cannot reach a hidden field.
    setTimeout(() => {
      const named = field ? formRef.current?.elements.namedItem(field) : null;
      (named instanceof HTMLElement ? named : formRef.current?.querySelector<HTMLElement>('input, textarea'))?.focus();
    }, 0);
  };
  async function confirm() {
    if (!review || sending) return;
    setSending(true);
    try {
      const result = await a.send(review);
      toast.result(result);
      if (result.ok) return a.onDone();
      form.report(result);
      back(result.errors?.[0]?.field);
    } catch {
      toast.error('The request did not go through. Check your connection and try again.');
    } finally {
      setSending(false);
    }
  }
  const bound = form.bind((data) => setReview({ amount: numberOf(data, a.field) ?? 0, reason: textOf(data, 'reason') }));
  const ref = (el: HTMLFormElement | null) => {
    formRef.current = el;
    bound.ref(el);
  };
  return { form, review, sending, back, confirm, bound: { ...bound, ref } };
}

/** What is about to be sent, with Back and the confirming button, which has the focus when the step opens. */
function ReviewStep({ reason, sending, onBack, onConfirm, children, confirmLabel }: { reason: string; sending: boolean; onBack: () => void; onConfirm: () => void; children: ReactNode; confirmLabel: string }) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    confirmRef.current?.focus();
  }, []);
  return (
    <div className="space-y-4 text-sm text-slate-800" data-testid="review-step">
      {children}
      <p className="text-slate-700">Your reason: “{reason}”</p>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onBack} disabled={sending}>
          Back
        </Button>
        <Button ref={confirmRef} onClick={onConfirm} loading={sending}>
          {confirmLabel}
        </Button>
      </div>
    </div>
  );
}

/** What the two amount-and-reason forms differ in: the field, its bound and words, and what the review says. */
type AmountAndReason = {
  formLabel: string;
  field: 'amount' | 'release_amount';
  amountLabel: string;
  max: number;
  hint: string;
  /** What each side gets for a typed amount within the bounds. */
  split: (amount: number) => ReactNode;
  splitPrompt: string;
  reasonLabel: string;
  reviewLabel: string;
  /** The review's opening words about the amount, above its split. */
  reviewIntro: (amount: number) => ReactNode;
  confirmLabel: string;
  send: (values: Amounts) => Promise<ActionResult>;
};

/** An amount and a reason, what each side gets as it is typed, then the review step with the confirming button. */
function AmountAndReasonForm({ spec, onCancel, onDone }: { spec: AmountAndReason } & Pick<FormHandlers, 'onCancel' | 'onDone'>) {
  const { max } = spec;
  const [typed, setTyped] = useState<number | undefined>();
  const flow = useReviewed({ field: spec.field, send: spec.send, onDone });
  const { form, review } = flow;
  return (
    <>
      <form {...flow.bound} hidden={review !== null} className="space-y-4" aria-label={spec.formLabel}>
        <NairaField
          label={spec.amountLabel}
          name={spec.field}
          max={max}
          hint={spec.hint}
          error={form.errorOf(spec.field)}
          onChange={(e) => setTyped(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))}
        />
        <div aria-live="polite" className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-800">
          {fits(typed, max) ? spec.split(typed) : <p>{spec.splitPrompt}</p>}
        </div>
        <TextAreaField label={spec.reasonLabel} name="reason" required error={form.errorOf('reason')} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit">{spec.reviewLabel}</Button>
        </div>
      </form>
      {review ? (
        <ReviewStep reason={review.reason} sending={flow.sending} onBack={() => flow.back()} onConfirm={() => void flow.confirm()} confirmLabel={spec.confirmLabel}>
          {fits(review.amount, max) ? (
            <>
              <p>{spec.reviewIntro(review.amount)}</p>
              {spec.split(review.amount)}
            </>
          ) : null}
        </ReviewStep>
      ) : null}
    </>
  );
}

/** The buyer offers to pay part of the delivery: the amount for the seller and why; what each side gets before it is sent. */
export function PartialAcceptanceForm({ milestone, intentKey, onCancel, onDone }: { milestone: MilestoneInTransaction } & FormHandlers) {
  const held = heldPrice(milestone);
  // Strictly less than everything held: all of it is an approval.
  const max = Math.round(held * 100 - 1) / 100;
  const spec: AmountAndReason = {
    formLabel: 'Accept part of the delivery',
    field: 'release_amount',
    amountLabel: 'Amount you pay the seller (₦)',
    max,
    hint: `Less than the ${naira(held)} held; the rest, with any fee you prepaid on it, comes back to you.`,
    split: (amount) => <PartialWords release={amount} milestone={milestone} />,
    splitPrompt: 'Type an amount to see what each side gets.',
    reasonLabel: 'Why do you pay only part?',
    reviewLabel: 'Review the offer',
    reviewIntro: (amount) => (
      <>
        You offer the seller <strong>{naira(amount)}</strong> of the {naira(held)} held. If the seller accepts, or does not answer within 3 business days:
      </>
    ),
    confirmLabel: 'Send the offer',
    send: ({ amount, reason }) => proposePartialAcceptance({ milestone_id: milestone.id, idempotency_key: intentKey, release_amount: amount, reason }),
  };
  return <AmountAndReasonForm spec={spec} onCancel={onCancel} onDone={onDone} />;
}

/** The seller gives back part or all of what is held, with a reason; what reaches the buyer before it is sent. */
export function RefundForm({ milestone, intentKey, onCancel, onDone }: { milestone: MilestoneInTransaction } & FormHandlers) {
  const held = heldPrice(milestone);
  const spec: AmountAndReason = {
    formLabel: 'Refund the buyer',
    field: 'amount',
    amountLabel: 'Amount to refund (₦)',
    max: held,
    hint: `At most ${naira(held)}, what this milestone still holds of its price.`,
    split: (amount) => <RefundWords amount={amount} milestone={milestone} />,
    splitPrompt: 'Type an amount to see what goes back to the buyer.',
    reasonLabel: 'Why are you refunding?',
    reviewLabel: 'Review the refund',
    reviewIntro: (amount) => (
      <>
        You refund <strong>{naira(amount)}</strong> of the {naira(held)} held. This cannot be undone.
      </>
    ),
    confirmLabel: 'Refund the buyer',
    send: ({ amount, reason }) => refundMilestone({ milestone_id: milestone.id, idempotency_key: intentKey, amount, reason }),
  };
  return <AmountAndReasonForm spec={spec} onCancel={onCancel} onDone={onDone} />;
}

/** The seller declines the buyer's offer, with a reason if it likes; no money moves and inspection restarts. */
export function DeclinePartialForm({ milestoneId, intentKey, onCancel, onDone }: { milestoneId: string } & FormHandlers) {
  const form = useActionForm();
  const bound = form.bind(async (data) => {
    const result = await declinePartialAcceptance({ milestone_id: milestoneId, idempotency_key: intentKey, reason: textOf(data, 'reason') });
    toast.result(result);
    form.report(result);
    if (result.ok) onDone();
  });
  return (
    <form {...bound} className="space-y-4" aria-label="Decline the offer">
      <TextAreaField label="Why do you decline? (optional)" name="reason" error={form.errorOf('reason')} />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Keep it open
        </Button>
        <Button type="submit" variant="danger" loading={form.busy}>
          Decline the offer
        </Button>
      </div>
    </form>
  );
}
