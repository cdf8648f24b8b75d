import 'server-only';
import { heldPrincipal, releaseOfHeld } from '@/lib/escrow/held-escrow';
import { refund, UnbalancedTransferError } from '@/lib/escrow/ledger';
import { formatNaira } from '@/lib/escrow/money';
import { withdrawOnBuyerAnswer } from '@/lib/escrow/partial-outcomes';
import type { ActionContext, MilestoneActionEffect } from './milestone-action';
import { partialAcceptanceJsonOf, partialOutcomeMilestoneOf, settlementTerms } from '../records/transaction-graph/domain';
import type { MilestoneRow, MilestoneWithEscrow } from '../records/transaction-graph/queries';

// Money a milestone action moves, shared by the party's own operation and the lapse that takes it on the
// party's behalf (apply-lapses.ts), which must not import the operations back.

/** What a log line adds when the buyer's full answer withdrew a pending partial acceptance. */
export const WITHDRAWN_NOTE = ' The pending partial acceptance is withdrawn.';

/**
 * The buyer's full answer to a delivery withdraws a pending partial acceptance (docs/decisions.md §17): the
 * milestone's changes for it, none when nothing is pending.
 */
export function withdrawnProposal(entry: MilestoneWithEscrow, now: Date): Partial<MilestoneRow> {
  const withdrawn = withdrawOnBuyerAnswer(partialOutcomeMilestoneOf(entry), now);
  if (!withdrawn.partialAcceptance || withdrawn.partialAcceptance.status === entry.milestone.partialAcceptance?.status) return {};
  return { partialAcceptance: partialAcceptanceJsonOf(withdrawn.partialAcceptance), ...withdrawn.clock };
}

/**
 * Releases everything held to the seller less the seller's fee share: an accepted delivery, or a lapsed
 * inspection. After a seller's partial refund that is less than the price (docs/decisions.md §17).
 */
export async function releaseToSeller({ client, graph, entry, now }: ActionContext, how: string): Promise<MilestoneActionEffect> {
  const terms = settlementTerms(entry);
  const owed = entry.milestone.amountKobo - entry.milestone.amountRefundedKobo;
  // The escrow must hold what the records say is left of the price: anything else moved behind the ledger's
  // back, and releasing what happens to be there would hide it (docs/decisions.md §4).
  if (heldPrincipal(terms) !== owed) throw new UnbalancedTransferError(`escrow ${entry.escrow.id} holds ${terms.escrowBalance}, not the ${owed} of the price left to release`);
  const withdrawn = withdrawnProposal(entry, now);
  const { transfer, breakdown } = releaseOfHeld({
    escrowId: entry.escrow.id,
    sellerWalletId: graph.seller.organisation.walletId,
    buyerWalletId: graph.buyer.organisation.walletId,
    feeAccountId: client.feeAccountId,
    terms,
  });
  return {
    milestone: { isCompleted: true, amountReleasedKobo: heldPrincipal(terms), ...withdrawn },
    transfer: { transfer, description: `Release of milestone ${entry.milestone.position}` },
    log: `${how}; ${formatNaira(breakdown.toSeller)} released to the seller (fee ${formatNaira(breakdown.fee)}).${withdrawn.partialAcceptance ? WITHDRAWN_NOTE : ''}`,
    disbursedKobo: breakdown.toSeller,
  };
}

/** Refunds everything held to the buyer: an approved return, or one the seller left unanswered. */
export async function refundBuyerOnReturn({ graph, entry }: ActionContext, how: string): Promise<MilestoneActionEffect> {
  const held = entry.escrow.balanceKobo;
  const transfer = refund({ escrowId: entry.escrow.id, buyerWalletId: graph.buyer.organisation.walletId, escrowBalance: held });
  return {
    milestone: { isReturnApproved: true, isDeliveryRejected: false },
    transfer: { transfer, description: `Refund of milestone ${entry.milestone.position}` },
    log: `${how}; ${formatNaira(held)} refunded to the buyer.`,
    refundedKobo: held,
  };
}
