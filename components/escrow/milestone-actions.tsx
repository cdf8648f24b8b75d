'use client';

import { approveDelivery, approveReturn, disapproveReturn, fundMilestone } from '@/lib/actions/milestones';
import type { MilestoneInTransaction, Viewer } from '@/lib/contracts/dashboard';
import { PARTIAL_OUTCOME_ACTIONS } from '@/lib/escrow/partial-outcomes';
import { ConfirmAction } from './confirm-action';
import { DeliverDialog, OpenDisputeDialog, RejectDeliveryDialog } from './milestone-dialogs';
import { feePayer, feeTerms, naira } from './money';

const WAITING: Record<string, string> = {
  fund: 'Waiting for the buyer to fund this milestone.',
  deliver: 'Waiting for the seller to deliver.',
  approve: 'Waiting for the buyer to accept or reject the delivery.',
  approve_return: 'Waiting for the seller to answer the return.',
  open_dispute: 'Either party may open a dispute.',
};

/**
 * Exactly the buttons the API's allowed_actions gives this viewer now; nothing is re-derived from the status.
 * An admin sees only funding, done on the buyer's behalf.
 */
export function MilestoneActions({ milestone, viewer, onDone }: { milestone: MilestoneInTransaction; viewer: Viewer; onDone: () => void }) {
  // The due date's own buttons are MilestoneExtension's; refunds and partial acceptance (docs/decisions.md §17)
  // have no buttons yet. These are the milestone's steps.
  const steps = (actions: readonly string[]) => actions.filter((a) => !a.endsWith('_extension') && !(PARTIAL_OUTCOME_ACTIONS as readonly string[]).includes(a));
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
  const releaseWords = `${viewer === 'seller' ? 'You receive' : 'The seller receives'} ${naira(fee.sellerReceives)}${fee.sellerShare > 0 ? ` (${naira(milestone.amount)} less ${naira(fee.sellerShare)} of the fee)` : ''}; the ${naira(fee.fee)} fee is charged then.`;

  if (mine.length === 0) {
    const waiting = other.map((a) => WAITING[a]).find(Boolean);
    return waiting ? <p className="text-sm text-slate-600">{waiting}</p> : null;
  }
  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label={`Actions on ${milestone.title}`}>
      {mine.includes('fund') ? (
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
    </div>
  );
}
