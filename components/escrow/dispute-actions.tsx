'use client';

import { lazy, Suspense, useState } from 'react';
import { acceptCounterOffer, approveAmount, escalateDispute } from '@/lib/actions/disputes';
import type { Dispute, Viewer } from '@/lib/contracts/dashboard';
import { lazyForm } from '../ui/lazy-form';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { FormDialog } from '../ui/form-dialog';
import { useIntentKey } from '../ui/intent-key';
import { Spinner } from '../ui/spinner';
import { ConfirmAction } from './confirm-action';
import { naira } from './format';
import { settlementSplit, splitWords } from './money';

const ProposeForm = lazyForm(() => import('./propose-form').then((m) => m.ProposeForm));

// Rejecting an amount and withdrawing are a click away from most views of a dispute: their forms load on
// opening (issue #6). The evidence form (and its uploader) shows only in the evidence window: it is still
// rendered on the server, and its code loads while such a page hydrates, on those pages alone.
const loadDialogForms = () => import('./dispute-dialog-forms');
const RejectAmountForm = lazy(() => loadDialogForms().then((m) => ({ default: m.RejectAmountForm })));
const WithdrawDisputeForm = lazy(() => loadDialogForms().then((m) => ({ default: m.WithdrawDisputeForm })));
const ExtendEvidenceForm = lazy(() => loadDialogForms().then((m) => ({ default: m.ExtendEvidenceForm })));
const EvidenceForm = lazy(() => import('./dispute-process-forms').then((m) => ({ default: m.EvidenceForm })));

function RejectAmountDialog({ dispute, onDone }: { dispute: Dispute; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [key, renewKey] = useIntentKey();
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)} onPointerEnter={() => void loadDialogForms()} onFocus={() => void loadDialogForms()}>
        Reject amount
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={`Reject ${naira(dispute.dispute_amount)}?`} description="The seller can then revise the amount. Say why, so the next proposal can meet you.">
        <RejectAmountForm
          disputeId={dispute.id}
          intentKey={key}
          onCancel={() => setOpen(false)}
          onDone={() => {
            setOpen(false);
            renewKey();
            onDone();
          }}
        />
      </Dialog>
    </>
  );
}

/** The seller withdraws: everything held goes back to the buyer. Asked twice, since it cannot be undone. */
export function WithdrawDisputeDialog({ dispute, onDone }: { dispute: Dispute; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [sending, setSending] = useState(false);
  const [key, renewKey] = useIntentKey();
  const held = dispute.milestone.milestone_escrow.balance;
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} onPointerEnter={() => void loadDialogForms()} onFocus={() => void loadDialogForms()}>
        Withdraw dispute
      </Button>
      <Dialog
        open={open}
        onClose={() => !sending && setOpen(false)}
        title="Withdraw this dispute?"
        description={`The dispute ends and all ${naira(held)} held is refunded to the buyer. This cannot be undone.`}
      >
        <WithdrawDisputeForm
          disputeId={dispute.id}
          intentKey={key}
          onBusy={setSending}
          onCancel={() => setOpen(false)}
          onDone={() => {
            setOpen(false);
            renewKey();
            onDone();
          }}
        />
      </Dialog>
    </>
  );
}

/** The dispute's allowed_actions for this viewer, nothing more. */
export function DisputeActions({ dispute, viewer, onDone }: { dispute: Dispute; viewer: Viewer; onDone: () => void }) {
  const mine = viewer === 'admin' ? [] : dispute.allowed_actions[viewer];
  const { buyer: buyerCan, seller: sellerCan } = dispute.allowed_actions;
  const waiting = dispute.status === 'ARBITRATION'
    ? 'The evidence window has closed. The dispute team is reviewing both sides and will decide how the money held is split.'
    : sellerCan.includes('accept_counter_offer') && viewer !== 'seller'
    ? `Waiting for the seller to answer ${viewer === 'buyer' ? 'your' : "the buyer's"} offer of ${naira(dispute.counter_offer_amount ?? 0)}.`
    : buyerCan.includes('approve_dispute_amount') && viewer !== 'buyer'
    ? `Waiting for the buyer to answer ${naira(dispute.dispute_amount)}.`
    : sellerCan.includes('add_dispute_amount') && viewer !== 'seller' && !buyerCan.includes('approve_dispute_amount')
      ? viewer === 'buyer'
        ? 'Waiting for the seller to propose an amount; you may offer one below.'
        : 'Waiting for the seller to propose an amount or the buyer to offer one.'
      : null;
  const held = dispute.milestone.milestone_escrow.balance;
  const mySide = viewer === 'buyer' ? dispute.is_buyer_evidence_submitted : viewer === 'seller' ? dispute.is_seller_evidence_submitted : false;
  return (
    <div className="space-y-4">
      {waiting ? <p className="text-sm text-slate-600">{waiting}</p> : null}
      {mine.includes('escalate') || mine.includes('cancel') ? (
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label="End the negotiation">
          {mine.includes('escalate') ? (
            <ConfirmAction
              label="Escalate to the dispute team"
              variant="secondary"
              title="Escalate this dispute?"
              description="Negotiation ends. Both of you then have 3 business days to submit evidence; a party that submits none forfeits, otherwise the dispute team decides how the money held is split."
              confirmLabel="Escalate"
              run={(key) => escalateDispute({ dispute_id: dispute.id, idempotency_key: key })}
              onDone={onDone}
            />
          ) : null}
          {mine.includes('cancel') ? <WithdrawDisputeDialog dispute={dispute} onDone={onDone} /> : null}
        </div>
      ) : null}
      {mine.includes('submit_evidence') ? (
        <div className="rounded-lg border border-amber-200 p-4">
          {mySide ? <p className="mb-3 text-sm text-slate-700">Your evidence is in. You may add more until the window closes.</p> : null}
          {mine.includes('extend_evidence') ? (
            <div className="mb-3">
              <FormDialog
                preload={loadDialogForms}
                label="Ask for 2 more business days"
                variant="secondary"
                title="Extend the evidence window?"
                description="The window closes 2 business days later, for both of you. Each party may extend it once. No money moves."
                onDone={onDone}
              >
                {(handlers) => <ExtendEvidenceForm disputeId={dispute.id} {...handlers} />}
              </FormDialog>
            </div>
          ) : null}
          <Suspense fallback={<Spinner label="Loading the evidence form…" />}>
            <EvidenceForm dispute={dispute} onDone={onDone} />
          </Suspense>
        </div>
      ) : null}
      {mine.includes('accept_counter_offer') ? (
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Answer the buyer's offer">
          <p className="mr-2 text-sm text-slate-800">
            The buyer offers you <strong>{naira(dispute.counter_offer_amount ?? 0)}</strong> of the {naira(held)} held.
          </p>
          <ConfirmAction
            label="Accept offer"
            title={`Accept ${naira(dispute.counter_offer_amount ?? 0)}?`}
            description={`${naira(dispute.counter_offer_amount ?? 0)} comes to you (less your fee share) and the rest of the ${naira(held)} held goes back to the buyer. The dispute is then settled; this cannot be undone. You may instead propose another amount below.`}
            confirmLabel="Accept and settle"
            run={(key) => acceptCounterOffer({ dispute_id: dispute.id, idempotency_key: key })}
            onDone={onDone}
          />
        </div>
      ) : null}
      {mine.includes('add_dispute_amount') ? <ProposeForm dispute={dispute} onDone={onDone} /> : null}
      {mine.includes('counter_offer') ? <ProposeForm dispute={dispute} side="buyer" onDone={onDone} /> : null}
      {mine.includes('approve_dispute_amount') || mine.includes('reject_dispute_amount') ? (
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Answer the proposal">
          <p className="mr-2 text-sm text-slate-800">
            The seller proposes to receive <strong>{naira(dispute.dispute_amount)}</strong> of the {naira(held)} held.
          </p>
          {mine.includes('approve_dispute_amount') ? (
            <ConfirmAction
              label="Approve amount"
              title={`Approve ${naira(dispute.dispute_amount)}?`}
              description={`${splitWords(settlementSplit(dispute.dispute_amount, dispute.milestone, held), 'buyer')}. The dispute is then settled; this cannot be undone.`}
              confirmLabel="Approve and settle"
              run={(key) => approveAmount({ dispute_id: dispute.id, idempotency_key: key })}
              onDone={onDone}
            />
          ) : null}
          {mine.includes('reject_dispute_amount') ? <RejectAmountDialog dispute={dispute} onDone={onDone} /> : null}
        </div>
      ) : null}
    </div>
  );
}
