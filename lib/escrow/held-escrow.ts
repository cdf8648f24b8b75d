/**
 * What a milestone escrow holds once the seller has refunded part of it (docs/decisions.md §17). The escrow
 * holds the part of the price not yet refunded (its principal) plus the buyer's prepaid fee share on that
 * principal, pro rata; a refund of principal gives the buyer the fee share on it back. Every balance is
 * therefore a function of the principal held, so the principal is read back from the balance and nothing
 * else needs storing. Pure, integer kobo.
 */
import { splitFee } from './fees';
import { balancedTransfer, feeOnPayment, settlement, UnbalancedTransferError, type SettlementBreakdown, type SettlementTerms, type Transfer } from './ledger';
import type { Kobo } from './money';

type Agreed = Pick<SettlementTerms, 'milestoneAmount' | 'milestoneFee' | 'commissionPayer'>;

/** The buyer's share of the fee on `principal` of the milestone: what the escrow holds for it beside the principal. */
export function buyerFeeShareFor(principal: Kobo, terms: Agreed): Kobo {
  return splitFee(feeOnPayment(principal, terms), terms.commissionPayer).buyer;
}

/** The escrow balance that holds `principal` of the milestone; funding holds the whole amount (fundingAmount). */
export function escrowFor(principal: Kobo, terms: Agreed): Kobo {
  return principal + buyerFeeShareFor(principal, terms);
}

/**
 * The part of the milestone's price the escrow still holds: the most the seller can still be paid, and the
 * most the seller can still refund. escrowFor grows by at least a kobo per kobo of principal, so exactly
 * one principal fits a balance; a balance no principal fits was not made by these functions, and is refused.
 */
export function heldPrincipal(terms: SettlementTerms): Kobo {
  let low = 0;
  let high = terms.milestoneAmount;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (escrowFor(mid, terms) < terms.escrowBalance) low = mid + 1;
    else high = mid;
  }
  if (escrowFor(low, terms) !== terms.escrowBalance) {
    throw new UnbalancedTransferError(`an escrow of ${terms.escrowBalance} holds no whole part of a milestone of ${terms.milestoneAmount}`);
  }
  return low;
}

export type RefundBreakdown = {
  /** What leaves the escrow for the buyer's wallet: the principal refunded and the fee share on it. */
  toBuyer: Kobo;
  principal: Kobo;
  feeShare: Kobo;
  escrowAfter: Kobo;
  /** Principal still held afterwards; 0 means everything held went back (the milestone ends REFUNDED). */
  principalAfter: Kobo;
};

/** The seller gives `principal` of the held price back; refuses anything outside 0 < principal ≤ heldPrincipal. */
export function refundBreakdown(principal: Kobo, terms: SettlementTerms): RefundBreakdown {
  const held = heldPrincipal(terms);
  if (!Number.isSafeInteger(principal) || principal <= 0 || principal > held) {
    throw new UnbalancedTransferError(`a refund of ${principal} does not fit the ${held} held`);
  }
  const principalAfter = held - principal;
  const escrowAfter = escrowFor(principalAfter, terms);
  const toBuyer = terms.escrowBalance - escrowAfter;
  return { toBuyer, principal, feeShare: toBuyer - principal, escrowAfter, principalAfter };
}

/** The seller's refund of `principal`: escrow → the buyer's wallet, the buyer's fee share on it included. */
export function sellerRefund(a: { escrowId: string; buyerWalletId: string; principal: Kobo; terms: SettlementTerms }): { transfer: Transfer; breakdown: RefundBreakdown } {
  const breakdown = refundBreakdown(a.principal, a.terms);
  const transfer = balancedTransfer('refund', [
    { accountId: a.escrowId, amount: -breakdown.toBuyer },
    { accountId: a.buyerWalletId, amount: breakdown.toBuyer },
  ]);
  return { transfer, breakdown };
}

type SettlementAccounts = { escrowId: string; sellerWalletId: string; buyerWalletId: string; feeAccountId: string };

/**
 * Releases everything held to the seller: an accepted delivery after partial refunds pays the principal
 * held, not the milestone amount. With nothing refunded it is exactly settlement('release', amount).
 */
export function releaseOfHeld(a: SettlementAccounts & { terms: SettlementTerms }): { transfer: Transfer; breakdown: SettlementBreakdown } {
  return settlement('release', { ...a, paidToSeller: heldPrincipal(a.terms) });
}

/**
 * An accepted partial acceptance: `releaseAmount` to the seller less its fee share pro rata, the fee to the
 * platform, the rest (the buyer's fee share on it included) to the buyer, escrow 0.
 * Refuses anything outside 0 < releaseAmount < heldPrincipal: all of it is a full approval.
 */
export function partialAcceptanceSettlement(a: SettlementAccounts & { releaseAmount: Kobo; terms: SettlementTerms }): { transfer: Transfer; breakdown: SettlementBreakdown } {
  const held = heldPrincipal(a.terms);
  if (!Number.isSafeInteger(a.releaseAmount) || a.releaseAmount <= 0 || a.releaseAmount >= held) {
    throw new UnbalancedTransferError(`a partial release of ${a.releaseAmount} does not fit the ${held} held`);
  }
  return settlement('release', { ...a, paidToSeller: a.releaseAmount });
}
