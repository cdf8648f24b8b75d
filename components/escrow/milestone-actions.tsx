'use client';

import { lazy } from 'react';
import { approveDelivery, approveReturn, disapproveReturn, fundMilestone } from '@/lib/actions/milestones';
import type { MilestoneInTransaction, Viewer } from '@/lib/contracts/dashboard';
import { FormDialog } from '../ui/form-dialog';
import { ConfirmAction } from './confirm-action';
import { DeliverDialog, OpenDisputeDialog, RejectDeliveryDialog } from './milestone-dialogs';
import { FundMilestoneDialog } from './milestone-funding';
import { naira } from './format';
import { feePayer, feeTerms, heldPrice, settlementSplit } from './money';

const loadPartialForms = () => import('./milestone-partial-forms');
const PartialAcceptanceForm = lazy(() => loadPartialForms().then((m) => ({ default: m.PartialAcceptanceForm })));
const RefundForm = lazy(() => loadPartialForms().then((m) => ({ default: m.RefundForm })));

const WAITING: Record<string, string> = {
  fund: 'Waiting for the buyer to fund this milestone.',
  deliver: 'Waiting for the seller to deliver.',
  approve: 'Waiting for the buyer to accept or reject the delivery.',
  approve_return: 'Waiting for the seller to answer the return.',
  open_dispute: 'Either party may open a dispute.',
};

/** Answering the buyer's offer is MilestonePartial's, beside the offer it answers. */
const ANSWERS = new Set(['accept_partial_acceptance', 'decline_partial_acceptance']);

/**
 * Exactly the buttons the API's allowed_actions gives this viewer now; nothing is re-derived from the status.
 * An admin sees only funding, done on the buyer's behalf. The buyer funds from its wallet or by card
 * (`buyerBalance`, the buyer's wallet, says when the wallet is short).
 */
export function MilestoneActions({ milestone, viewer, buyerBalance, onDone }: { milestone: MilestoneInTransaction; viewer: Viewer; buyerBalance?: number; onDone: () => void }) {
  // The due date's own buttons are MilestoneExtension's. These are the milestone's steps, refunds and partial acceptance.
  const steps = (actions: readonly string[]) => actions.filter((a) => !a.endsWith('_extension') && !ANSWERS.has(a));
  const allowed = { buyer: steps(milestone.allowed_actions.buyer), seller: steps(milestone.allowed_actions.seller) };
  const mine = viewer === 'admin' ? allowed.buyer.filter((a) => a === 'fund') : allowed[viewer];
  const other = viewer === 'seller' ? allowed.buyer : viewer === 'buyer' ? allowed.seller : [...allowed.buyer, ...allowed.seller].filter((a) => a !== 'fund');
  const m = { milestone_id: milestone.id };
  const fee = feeTerms(milestone);
  const payer = feePayer(milestone.commission_payer, viewer);
  const yourWallet = viewer === 'buyer' ? 'your wallet' : "the buyer's wallet";
  const fundWords =
    fee.buyerShare > 0
      ? `${naira(fee.buyerPays)} moves from ${yourWallet} into this milestone's escrow: ${naira(milestone.amount)} and ${naira(fee.buyerShare)} of the ${naira(fee.fee)} fee (paid by ${payer}).`
      : `${naira(fee.buyerPays)} moves from ${yourWallet} into this milestone's escrow. The ${naira(fee.fee)} fee is paid by ${payer}, out of the release.`;
  const held = heldPrice(milestone);
  // After a partial refund the release pays what is still held, its fee pro rata (docs/decisions.md §17).
  const release = milestone.amount_refunded > 0 ? settlementSplit(held, milestone, milestone.milestone_escrow.balance) : null;
  const releaseWords = release
    ? `${viewer === 'seller' ? 'You receive' : 'The seller receives'} ${naira(release.toSeller)} for the ${naira(held)} of the price still held; the ${naira(release.fee)} fee on it is charged then.`
    : `${viewer === 'seller' ? 'You receive' : 'The seller receives'} ${naira(fee.sellerReceives)}${fee.sellerShare > 0 ? ` (${naira(milestone.amount)} less ${naira(fee.sellerShare)} of the fee)` : ''}; the ${naira(fee.fee)} fee is charged then.`;

  // A refund is the seller's choice at any time, not a step: the other party's step is still waited for beside it.
  const owesAnswer = viewer !== 'admin' && milestone.allowed_actions[viewer].some((a) => ANSWERS.has(a));
  const waiting = owesAnswer || mine.some((a) => a !== 'refund') ? undefined : other.map((a) => WAITING[a]).find(Boolean);
  if (mine.length === 0) return waiting ? <p className="text-sm text-slate-600">{waiting}</p> : null;
  return (
    <div className="space-y-2">
      {waiting ? <p className="text-sm text-slate-600">{waiting}</p> : null}
      <div className="flex flex-wrap gap-2" role="group" aria-label={`Actions on ${milestone.title}`}>
        {mine.includes('fund') && viewer === 'buyer' ? <FundMilestoneDialog milestone={milestone} description={fundWords} balance={buyerBalance} onDone={onDone} /> : null}
        {mine.includes('fund') && viewer === 'admin' ? (
          <ConfirmAction
            label="Fund milestone"
            title={`Fund "${milestone.title}"?`}
            description={fundWords}
            run={(key) => fundMilestone({ ...m, idempotency_key: key })}
            onDone={onDone}
          />
        ) : null}
        {mine.includes('deliver') ? <DeliverDialog milestoneId={milestone.id} amount={milestone.amount} onDone={onDone} /> : null}
        {mine.includes('approve') ? (
          <ConfirmAction
            label="Accept delivery"
            title="Accept the delivery and release the money?"
            description={`${naira(milestone.milestone_escrow.balance)} held in escrow is released. ${releaseWords} This cannot be undone.`}
            confirmLabel="Accept and release"
            run={(key) => approveDelivery({ ...m, idempotency_key: key })}
            onDone={onDone}
          />
        ) : null}
        {mine.includes('propose_partial_acceptance') ? (
          <FormDialog
            preload={loadPartialForms}
            label="Accept part"
            variant="secondary"
            title="Accept part of the delivery"
            description={`Offer the seller part of the ${naira(held)} held; the rest comes back to you. The seller has 3 business days to answer; without an answer the offer is accepted.`}
            onDone={onDone}
          >
            {(handlers) => <PartialAcceptanceForm milestone={milestone} {...handlers} />}
          </FormDialog>
        ) : null}
        {mine.includes('reject') ? <RejectDeliveryDialog milestoneId={milestone.id} amount={milestone.milestone_escrow.balance} onDone={onDone} /> : null}
        {mine.includes('approve_return') ? (
          <ConfirmAction
            label="Approve the return"
            title="Approve the return and refund the buyer?"
            description={`${naira(milestone.milestone_escrow.balance)} held in escrow goes back to the buyer. This cannot be undone.`}
            confirmLabel="Approve and refund"
            run={(key) => approveReturn({ ...m, idempotency_key: key })}
            onDone={onDone}
          />
        ) : null}
        {mine.includes('disapprove_return') ? (
          <ConfirmAction
            label="Reject the return"
            variant="danger"
            title="Reject the buyer's return?"
            description={`The ${naira(milestone.milestone_escrow.balance)} stays held. You can then open a dispute to settle it.`}
            run={(key) => disapproveReturn({ ...m, idempotency_key: key })}
            onDone={onDone}
          />
        ) : null}
        {mine.includes('open_dispute') ? <OpenDisputeDialog milestoneId={milestone.id} amount={milestone.milestone_escrow.balance} opener={viewer === 'buyer' ? 'buyer' : 'seller'} onDone={onDone} /> : null}
        {mine.includes('refund') ? (
          <FormDialog
            preload={loadPartialForms}
            label="Refund"
            variant="secondary"
            title="Refund the buyer"
            description={`Give back part or all of the ${naira(held)} this milestone holds of its price. What you refund goes to the buyer's wallet at once.`}
            onDone={onDone}
          >
            {(handlers) => <RefundForm milestone={milestone} {...handlers} />}
          </FormDialog>
        ) : null}
      </div>
    </div>
  );
}
