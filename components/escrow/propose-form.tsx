'use client';

import { counterOffer, proposeAmount } from '@/lib/actions/disputes';
import type { Dispute } from '@/lib/contracts/dashboard';
import { numberOf } from '../ui/action-form';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/dialog';
import { NairaField } from './naira-field';
import { useConfirmedSubmit } from '../ui/confirmed-submit';
import { naira } from './format';
import { settlementSplit, splitWords } from './money';

const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * An amount for the seller in mediation: the seller proposes what it should receive, the buyer offers what
 * it is prepared to pay (a counter-offer, docs/decisions.md §13). Both are the seller's share of the money held.
 */
export function ProposeForm({ dispute, side = 'seller', onDone }: { dispute: Dispute; side?: 'seller' | 'buyer'; onDone: () => void }) {
  // The range this dispute allows now (min/max on the field; the action's contract and the API check again).
  const max = dispute.max_dispute_amount;
  const held = dispute.milestone.milestone_escrow.balance;
  const revising = dispute.proposals.some((p) => p.proposed_by === side);
  const field = side === 'seller' ? 'dispute_amount' : 'amount';
  const flow = useConfirmedSubmit({
    read: (data) => numberOf(data, field) ?? 0,
    send: (amount, key) =>
      side === 'seller'
        ? proposeAmount({ dispute_id: dispute.id, idempotency_key: key, dispute_amount: amount })
        : counterOffer({ dispute_id: dispute.id, idempotency_key: key, amount }),
    onSent: onDone,
  });
  const { form, pending: amount } = flow;
  const label =
    side === 'seller'
      ? `${revising ? 'Revise the amount' : 'Amount'} you should receive (₦)`
      : `${revising ? 'Revise the amount' : 'Amount'} you offer to pay the seller (₦)`;
  return (
    <>
      <form {...flow.bound} className="flex flex-wrap items-end gap-2" aria-label={side === 'seller' ? 'Propose an amount' : 'Make a counter-offer'}>
        <NairaField
          label={label}
          name={field}
          hint={`Between ${naira(0)} and ${naira(max)}: the rest of the money held goes back to the buyer.`}
          min={0}
          max={max}
          className="min-w-64 flex-1"
          error={form.errorOf(field)}
        />
        <Button type="submit">{side === 'seller' ? (revising ? 'Propose revised amount' : 'Propose amount') : revising ? 'Offer revised amount' : 'Make counter-offer'}</Button>
      </form>
      <ConfirmDialog
        open={amount !== null}
        sending={flow.sending}
        onCancel={flow.cancel}
        onConfirm={flow.confirm}
        title={side === 'seller' ? 'Send this proposal?' : 'Send this offer?'}
        description={
          amount === null
            ? undefined
            : side === 'seller'
              ? `You propose to receive ${naira(amount)} of the ${naira(held)} held. If the buyer approves: ${lower(splitWords(settlementSplit(amount, dispute.milestone, held), 'seller'))}. The money moves at once.`
              : `You offer the seller ${naira(amount)} of the ${naira(held)} held. If the seller accepts: ${lower(splitWords(settlementSplit(amount, dispute.milestone, held), 'buyer'))}. The money moves at once.`
        }
        confirmLabel={side === 'seller' ? 'Send proposal' : 'Send offer'}
      />
    </>
  );
}
