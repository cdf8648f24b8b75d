'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { approveAmount, escalateDispute, proposeAmount, rejectAmount } from '@/app/(dashboard)/disputes/actions';
import { ProposeAmountInput, RejectAmountInput, type Dispute, type Viewer } from '@/lib/contracts/dashboard';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { TextAreaField, TextField } from '../ui/field';
import { newIntentKey } from '../ui/intent-key';
import { useToast } from '../ui/toast';
import { ConfirmAction } from './confirm-action';
import { EvidenceForm, WithdrawDisputeDialog } from './dispute-process-forms';
import { naira } from './money';

function ProposeForm({ dispute, onDone }: { dispute: Dispute; onDone: () => void }) {
  const toast = useToast();
  const max = dispute.max_dispute_amount;
  // The API's schema, plus the range this dispute allows now (the API checks it again).
  const schema = useMemo(() => ProposeAmountInput.refine((v) => v.dispute_amount <= max, { path: ['dispute_amount'], message: `must be at most ${naira(max)}` }), [max]);
  const revising = dispute.proposals.some((p) => p.proposed_by === 'seller');
  const form = useForm({
    resolver: zodResolver(schema),
    defaultValues: { dispute_id: dispute.id, idempotency_key: newIntentKey(), dispute_amount: '' as unknown as number },
  });
  const [pending, setPending] = useState<{ values: typeof ProposeAmountInput._output; sending: boolean } | null>(null);
  const onSubmit = form.handleSubmit((values) => setPending({ values, sending: false }));
  async function confirm() {
    if (!pending) return;
    setPending({ ...pending, sending: true });
    const result = await proposeAmount(pending.values);
    toast.result(result);
    setPending(null);
    if (result.ok) {
      form.reset({ dispute_id: dispute.id, idempotency_key: newIntentKey(), dispute_amount: '' as unknown as number });
      onDone();
    }
  }
  return (
    <>
      <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-2">
        <TextField
          label={revising ? 'Revise the amount you should receive (₦)' : 'Amount you should receive (₦)'}
          hint={`Between ${naira(0)} and ${naira(max)}: the rest of the money held goes back to the buyer.`}
          type="number"
          inputMode="decimal"
          step="0.01"
          min={0}
          max={max}
          className="min-w-64 flex-1"
          error={form.formState.errors.dispute_amount?.message}
          {...form.register('dispute_amount', { valueAsNumber: true })}
        />
        <Button type="submit">{revising ? 'Propose revised amount' : 'Propose amount'}</Button>
      </form>
      <Dialog
        open={pending !== null}
        onClose={() => !pending?.sending && setPending(null)}
        title="Send this proposal?"
        description={pending ? `You propose to receive ${naira(pending.values.dispute_amount)}. If the buyer approves, the money moves at once.` : undefined}
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setPending(null)} disabled={pending?.sending}>
            Cancel
          </Button>
          <Button onClick={confirm} loading={pending?.sending}>
            Send proposal
          </Button>
        </div>
      </Dialog>
    </>
  );
}

function RejectAmountDialog({ dispute, onDone }: { dispute: Dispute; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const toast = useToast();
  const form = useForm({ resolver: zodResolver(RejectAmountInput), defaultValues: { dispute_id: dispute.id, idempotency_key: newIntentKey(), reason: '' } });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await rejectAmount(values);
    toast.result(result);
    if (result.ok) {
      setOpen(false);
      form.reset({ dispute_id: dispute.id, idempotency_key: newIntentKey(), reason: '' });
      onDone();
    }
  });
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Reject amount
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={`Reject ${naira(dispute.dispute_amount)}?`} description="The seller can then revise the amount. Say why, so the next proposal can meet you.">
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <TextAreaField label="Reason (optional)" error={form.formState.errors.reason?.message} {...form.register('reason')} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" loading={form.formState.isSubmitting}>
              Reject amount
            </Button>
          </div>
        </form>
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
    : buyerCan.includes('approve_dispute_amount') && viewer !== 'buyer'
    ? `Waiting for the buyer to answer ${naira(dispute.dispute_amount)}.`
    : sellerCan.includes('add_dispute_amount') && viewer !== 'seller' && !buyerCan.includes('approve_dispute_amount')
      ? 'Waiting for the seller to propose an amount.'
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
          <EvidenceForm dispute={dispute} onDone={onDone} />
        </div>
      ) : null}
      {mine.includes('add_dispute_amount') ? <ProposeForm dispute={dispute} onDone={onDone} /> : null}
      {mine.includes('approve_dispute_amount') || mine.includes('reject_dispute_amount') ? (
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Answer the proposal">
          <p className="mr-2 text-sm text-slate-800">
            The seller proposes to receive <strong>{naira(dispute.dispute_amount)}</strong> of the {naira(held)} held.
          </p>
          {mine.includes('approve_dispute_amount') ? (
            <ConfirmAction
              label="Approve amount"
              title={`Approve ${naira(dispute.dispute_amount)}?`}
              description={`${naira(dispute.dispute_amount)} goes to the seller (less its fee share) and the rest of the ${naira(held)} held comes back to you. The dispute is then settled; this cannot be undone.`}
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
