'use client';

import { lazy } from 'react';
import { acceptPartialAcceptance } from '@/lib/actions/milestones';
import type { MilestoneInTransaction, Viewer } from '@/lib/contracts/dashboard';
import { FormDialog } from '../ui/form-dialog';
import { ConfirmAction } from './confirm-action';
import { dateTime, naira } from './format';
import { feeChargedOn, heldPrice } from './money';
import { partialSplit } from './partial-money';

const loadForms = () => import('./milestone-partial-forms');
const DeclinePartialForm = lazy(() => loadForms().then((m) => ({ default: m.DeclinePartialForm })));

/**
 * A milestone's partial outcomes (docs/decisions.md §17): the buyer's pending offer to pay part, with the seller's
 * Accept and Decline; how a settled offer ended; and what of the price went back to the buyer.
 */
export function MilestonePartial({ milestone: m, viewer, onDone }: { milestone: MilestoneInTransaction; viewer: Viewer; onDone: () => void }) {
  const offer = m.partial_acceptance;
  if (!offer && m.amount_refunded === 0) return null;
  const mine = viewer === 'admin' ? [] : m.allowed_actions[viewer];
  const buyer = viewer === 'buyer' ? 'you' : 'the buyer';
  const Buyer = buyer === 'you' ? 'You' : 'The buyer';
  return (
    <div className="mt-4 space-y-2 text-sm" data-testid="partial-outcome">
      {offer?.status === 'PENDING' ? <PendingOffer milestone={m} viewer={viewer} mine={mine} onDone={onDone} /> : null}
      {offer?.status === 'ACCEPTED' ? <AcceptedOffer milestone={m} viewer={viewer} /> : null}
      {offer?.status === 'DECLINED' ? (
        <p className="text-slate-700" data-testid="partial-acceptance">
          {viewer === 'seller' ? 'You' : 'The seller'} declined {viewer === 'buyer' ? 'your' : "the buyer's"} offer to pay {naira(offer.release_amount)}
          {offer.decline_reason ? `: “${offer.decline_reason}”` : ''}
          {offer.answered_at ? ` (${dateTime(offer.answered_at)})` : ''}. Inspection restarted then.
        </p>
      ) : null}
      {offer?.status === 'WITHDRAWN' ? (
        <p className="text-slate-700" data-testid="partial-acceptance">
          {Buyer === 'You' ? 'Your' : "The buyer's"} offer to pay {naira(offer.release_amount)} was withdrawn{offer.answered_at ? ` (${dateTime(offer.answered_at)})` : ''}.
        </p>
      ) : null}
      {m.amount_refunded > 0 ? (
        <p className="text-slate-700" data-testid="amount-refunded">
          {naira(m.amount_refunded)} of the {naira(m.amount)} price went back to {buyer}.
        </p>
      ) : null}
    </div>
  );
}

type Props = { milestone: MilestoneInTransaction; viewer: Viewer };

function PendingOffer({ milestone: m, viewer, mine, onDone }: Props & { mine: readonly string[]; onDone: () => void }) {
  const offer = m.partial_acceptance!;
  const held = heldPrice(m);
  const split = partialSplit(offer.release_amount, m);
  const due = m.deadlines.find((d) => d.name === 'partial_acceptance_response');
  const sellerGets = viewer === 'seller' ? 'you receive' : 'the seller receives';
  const buyerGets = viewer === 'buyer' ? 'comes back to you' : 'goes back to the buyer';
  const outcome = `${sellerGets} ${naira(split.toSeller)}${split.sellerFeeShare > 0 ? ` (${naira(offer.release_amount)} less ${naira(split.sellerFeeShare)} of the fee)` : ''}, ${naira(split.toBuyer)} ${buyerGets}, and the fee charged is ${naira(split.fee)}`;
  return (
    <div className="space-y-2 rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sky-950" data-testid="partial-acceptance">
      <p>
        {viewer === 'buyer' ? 'You offer' : 'The buyer offers'} to pay <strong>{naira(offer.release_amount)}</strong> of the {naira(held)} held: “{offer.reason}”.
      </p>
      <p>If it is accepted, {outcome}.</p>
      <p>
        {mine.includes('accept_partial_acceptance') ? 'Your answer decides.' : 'Waiting for the seller’s answer.'}
        {due ? ` Without an answer by ${dateTime(due.due_at)} it is accepted.` : ''}
      </p>
      {mine.includes('accept_partial_acceptance') || mine.includes('decline_partial_acceptance') ? (
        <div className="flex flex-wrap gap-2" role="group" aria-label={`Answer the offer on ${m.title}`}>
          {mine.includes('accept_partial_acceptance') ? (
            <ConfirmAction
              label="Accept"
              title="Accept the buyer’s offer?"
              description={`The milestone completes: ${outcome}. This cannot be undone.`}
              confirmLabel="Accept the offer"
              run={(key) => acceptPartialAcceptance({ milestone_id: m.id, idempotency_key: key })}
              onDone={onDone}
            />
          ) : null}
          {mine.includes('decline_partial_acceptance') ? (
            <FormDialog
              preload={loadForms}
              label="Decline"
              variant="secondary"
              title="Decline the buyer’s offer?"
              description={`No money moves: the ${naira(held)} stays held and the buyer's inspection starts again.`}
              onDone={onDone}
            >
              {(handlers) => <DeclinePartialForm milestoneId={m.id} {...handlers} />}
            </FormDialog>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** Settled: the escrow is empty, so the split is told from the offer's own amounts and the agreed fee pro rata. */
function AcceptedOffer({ milestone: m, viewer }: Props) {
  const offer = m.partial_acceptance!;
  const charged = feeChargedOn(offer.release_amount, m);
  const toSeller = Math.round((offer.release_amount - charged.sellerShare) * 100) / 100;
  return (
    <p className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-emerald-950" data-testid="partial-acceptance">
      {viewer === 'buyer' ? 'Your' : "The buyer's"} offer to pay {naira(offer.release_amount)} was accepted{offer.answered_at ? ` (${dateTime(offer.answered_at)})` : ''}:{' '}
      {viewer === 'seller' ? 'you received' : 'the seller received'} {naira(toSeller)}, {naira(offer.refund_amount)} {viewer === 'buyer' ? 'came back to you' : 'went back to the buyer'}, and the fee charged was{' '}
      {naira(charged.fee)}.
    </p>
  );
}
