'use client';

import { lazy } from 'react';
import { answerCancellation } from '@/lib/actions/transactions';
import type { Transaction, Viewer } from '@/lib/contracts/dashboard';
import { Card } from '../ui/card';
import { FormDialog } from '../ui/form-dialog';
import { ConfirmAction } from './confirm-action';
import { dateTime, naira } from './format';

const loadForm = () => import('./transaction-ending-form');
const EndTransactionForm = lazy(() => loadForm().then((m) => ({ default: m.EndTransactionForm })));
const RateForm = lazy(() => loadForm().then((m) => ({ default: m.RateForm })));

/** What the buyer's money held in escrow comes to now: every unfinished milestone's escrow goes back on cancellation. */
function heldInEscrow(t: Transaction): number {
  return t.milestones.reduce((sum, m) => sum + m.milestone_escrow.balance, 0);
}

function EndDialog({ t, kind, onDone }: { t: Transaction; kind: 'cancel' | 'terminate'; onDone: () => void }) {
  const held = heldInEscrow(t);
  const money = held > 0 ? `${naira(held)} held in escrow goes back to the buyer's wallet` : 'No money is held in escrow, so nothing moves';
  const description =
    kind === 'terminate'
      ? `Every unfinished milestone is canceled at once. ${money}; completed and settled milestones stay paid.`
      : held > 0
        ? `Money is held, so the other party must agree (the buyer may cancel alone once a funded milestone is past its due date undelivered). If canceled: ${money.charAt(0).toLowerCase()}${money.slice(1)}; completed milestones stay paid.`
        : `${money}: the transaction is canceled at once and every unfinished milestone with it.`;
  return (
    <FormDialog
      preload={loadForm}
      label={kind === 'cancel' ? 'Cancel transaction' : 'End the transaction'}
      variant="danger"
      title={kind === 'cancel' ? 'Cancel this transaction?' : 'End the rest of this transaction?'}
      description={description}
      onDone={onDone}
    >
      {(handlers) => <EndTransactionForm transactionId={t.id} kind={kind} {...handlers} />}
    </FormDialog>
  );
}

function RateDialog({ t, other, onDone }: { t: Transaction; other: 'buyer' | 'seller'; onDone: () => void }) {
  return (
    <FormDialog preload={loadForm} label={`Rate the ${other}`} title={`Rate the ${other}`} description={`Your rating is added to the ${other}'s, once: it cannot be changed later.`} onDone={onDone}>
      {(handlers) => <RateForm transactionId={t.id} other={other} {...handlers} />}
    </FormDialog>
  );
}

/**
 * What a party does to the transaction as a whole (docs/decisions.md §13): how it ended, a cancellation request
 * waiting for an answer, and the buttons the API's transaction allowed_actions give this viewer (each
 * ending saying where the money goes), rating the other party once it is completed.
 */
export function TransactionEnding({ transaction: t, viewer, onDone }: { transaction: Transaction; viewer: Viewer; onDone: () => void }) {
  const mine = viewer === 'admin' ? [] : t.allowed_actions[viewer];
  const request = t.cancellation_request;
  const ended = t.status === 'CANCELED' || t.status === 'TERMINATED';
  const rated = viewer === 'buyer' ? t.has_buyer_rated : viewer === 'seller' ? t.has_seller_rated : false;
  if (!ended && !request && !rated && mine.length === 0) return null;
  const who = (role: 'buyer' | 'seller') => (role === viewer ? 'You' : `The ${role}`);
  const held = heldInEscrow(t);
  const answerBy = t.deadlines.find((d) => d.name === 'cancellation_response');
  return (
    <Card className="space-y-3" aria-label="The transaction as a whole">
      {ended ? (
        <p className="text-sm text-slate-800" data-testid="transaction-ended">
          {t.ended_by ? who(t.ended_by) : 'A party'} {t.status === 'CANCELED' ? 'canceled' : 'ended'} this transaction
          {t.date_canceled ? ` on ${dateTime(t.date_canceled)}` : ''}
          {t.end_reason ? `: “${t.end_reason}”` : ''}. {naira(t.total_amount_refunded)} in all went back to the buyer.
        </p>
      ) : null}
      {request ? (
        <p className="text-sm text-slate-800" role="status" data-testid="cancellation-request">
          {who(request.requested_by)} asked to cancel on {dateTime(request.requested_at)}: “{request.reason}”.{' '}
          {mine.includes('approve_cancellation') || mine.includes('decline_cancellation')
            ? 'Your answer decides.'
            : `Waiting for the ${request.requested_by === 'buyer' ? 'seller' : 'buyer'} to answer.`}
          {answerBy ? ` Without an answer by ${dateTime(answerBy.due_at)} it is ${answerBy.on_lapse === 'cancellation_approved' ? 'approved' : 'declined'} automatically.` : ''}
        </p>
      ) : null}
      {rated ? <p className="text-sm text-slate-700">Thank you: you rated the {viewer === 'buyer' ? 'seller' : 'buyer'} for this transaction.</p> : null}
      {mine.length > 0 ? (
        <div className="flex flex-wrap gap-2" role="group" aria-label="Transaction actions">
          {mine.includes('approve_cancellation') ? (
            <ConfirmAction
              label="Approve cancellation"
              variant="danger"
              title="Approve the cancellation?"
              description={`Every unfinished milestone is canceled. ${held > 0 ? `${naira(held)} held in escrow goes back to the buyer's wallet` : 'No money is held'}; completed milestones stay paid. This cannot be undone.`}
              confirmLabel="Approve and cancel"
              run={(key) => answerCancellation({ transaction_id: t.id, answer: 'approve', idempotency_key: key })}
              onDone={onDone}
            />
          ) : null}
          {mine.includes('decline_cancellation') ? (
            <ConfirmAction
              label="Decline cancellation"
              variant="secondary"
              title="Decline the cancellation?"
              description={`The transaction goes on as agreed${held > 0 ? ` and ${naira(held)} stays in escrow` : ''}.`}
              confirmLabel="Decline"
              run={(key) => answerCancellation({ transaction_id: t.id, answer: 'decline', idempotency_key: key })}
              onDone={onDone}
            />
          ) : null}
          {mine.includes('cancel') ? <EndDialog t={t} kind="cancel" onDone={onDone} /> : null}
          {mine.includes('terminate') ? <EndDialog t={t} kind="terminate" onDone={onDone} /> : null}
          {mine.includes('rate') && viewer !== 'admin' ? <RateDialog t={t} other={viewer === 'buyer' ? 'seller' : 'buyer'} onDone={onDone} /> : null}
        </div>
      ) : null}
    </Card>
  );
}
