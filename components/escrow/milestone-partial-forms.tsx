'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';
import { declinePartialAcceptance, proposePartialAcceptance, refundMilestone } from '@/lib/actions/milestones';
import type { ActionResult, MilestoneInTransaction } from '@/lib/contracts/dashboard';
import { numberOf, textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { TextAreaField, TextField } from '../ui/field';
import type { FormHandlers } from '../ui/form-dialog';
import { toast } from '../ui/toast';
import { heldPrice, naira, refundSplit } from './money';
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

/** The buyer offers to pay part of the delivery: the amount for the seller and why; what each side gets before it is sent. */
export function PartialAcceptanceForm({ milestone, intentKey, onCancel, onDone }: { milestone: MilestoneInTransaction } & FormHandlers) {
  const held = heldPrice(milestone);
  // Strictly less than everything held: all of it is an approval.
  const max = Math.round(held * 100 - 1) / 100;
  const [typed, setTyped] = useState<number | undefined>();
  const flow = useReviewed({
    field: 'release_amount',
    send: ({ amount, reason }) => proposePartialAcceptance({ milestone_id: milestone.id, idempotency_key: intentKey, release_amount: amount, reason }),
    onDone,
  });
  const { form, review } = flow;
  return (
    <>
      <form {...flow.bound} hidden={review !== null} className="space-y-4" aria-label="Accept part of the delivery">
        <TextField
          label="Amount you pay the seller (₦)"
          name="release_amount"
          type="number"
          inputMode="decimal"
          step="0.01"
          min={0.01}
          max={max}
          required
          data-range-error={`must be between ${naira(0.01)} and ${naira(max)}`}
          hint={`Less than the ${naira(held)} held; the rest, with any fee you prepaid on it, comes back to you.`}
          error={form.errorOf('release_amount')}
          onChange={(e) => setTyped(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))}
        />
        <div aria-live="polite" className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-800">
          {fits(typed, max) ? <PartialWords release={typed} milestone={milestone} /> : <p>Type an amount to see what each side gets.</p>}
        </div>
        <TextAreaField label="Why do you pay only part?" name="reason" required error={form.errorOf('reason')} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit">Review the offer</Button>
        </div>
      </form>
      {review ? (
        <ReviewStep reason={review.reason} sending={flow.sending} onBack={() => flow.back()} onConfirm={() => void flow.confirm()} confirmLabel="Send the offer">
          {fits(review.amount, max) ? (
            <>
              <p>
                You offer the seller <strong>{naira(review.amount)}</strong> of the {naira(held)} held. If the seller accepts, or does not answer within 3 business days:
              </p>
              <PartialWords release={review.amount} milestone={milestone} />
            </>
          ) : null}
        </ReviewStep>
      ) : null}
    </>
  );
}

/** The seller gives back part or all of what is held, with a reason; what reaches the buyer before it is sent. */
export function RefundForm({ milestone, intentKey, onCancel, onDone }: { milestone: MilestoneInTransaction } & FormHandlers) {
  const held = heldPrice(milestone);
  const [typed, setTyped] = useState<number | undefined>();
  const flow = useReviewed({
    field: 'amount',
    send: ({ amount, reason }) => refundMilestone({ milestone_id: milestone.id, idempotency_key: intentKey, amount, reason }),
    onDone,
  });
  const { form, review } = flow;
  return (
    <>
      <form {...flow.bound} hidden={review !== null} className="space-y-4" aria-label="Refund the buyer">
        <TextField
          label="Amount to refund (₦)"
          name="amount"
          type="number"
          inputMode="decimal"
          step="0.01"
          min={0.01}
          max={held}
          required
          data-range-error={`must be between ${naira(0.01)} and ${naira(held)}`}
          hint={`At most ${naira(held)}, what this milestone still holds of its price.`}
          error={form.errorOf('amount')}
          onChange={(e) => setTyped(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))}
        />
        <div aria-live="polite" className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-800">
          {fits(typed, held) ? <RefundWords amount={typed} milestone={milestone} /> : <p>Type an amount to see what goes back to the buyer.</p>}
        </div>
        <TextAreaField label="Why are you refunding?" name="reason" required error={form.errorOf('reason')} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit">Review the refund</Button>
        </div>
      </form>
      {review ? (
        <ReviewStep reason={review.reason} sending={flow.sending} onBack={() => flow.back()} onConfirm={() => void flow.confirm()} confirmLabel="Refund the buyer">
          {fits(review.amount, held) ? (
            <>
              <p>
                You refund <strong>{naira(review.amount)}</strong> of the {naira(held)} held. This cannot be undone.
              </p>
              <RefundWords amount={review.amount} milestone={milestone} />
            </>
          ) : null}
        </ReviewStep>
      ) : null}
    </>
  );
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
