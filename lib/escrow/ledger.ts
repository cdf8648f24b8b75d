/**
 * Double-entry postings (docs/decisions.md §4). Every movement is a transfer whose postings sum to zero;
 * a posting credits (+) or debits (−) one ledger account. Accounts are named by id; the caller
 * maps wallets, milestone escrows, the client's fee account and the outside world to ids.
 */
import { splitFee, type CommissionPayer } from './fees';
import type { Kobo } from './money';

export const TRANSFER_KINDS = [
  'wallet_funding',
  'milestone_funding',
  'release',
  'refund',
  'dispute_settlement',
  'payout',
  'payout_paid',
  'payout_returned',
  'live_funding',
  /** A hosted checkout's payment into the buyer's wallet (docs/decisions.md §16). */
  'checkout_payment',
] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];

export type Posting = { accountId: string; amount: Kobo };
export type Transfer = { kind: TransferKind; postings: Posting[] };

export class UnbalancedTransferError extends Error {}

/** Drops zero legs and refuses anything that does not sum to zero or is not whole kobo. */
export function balancedTransfer(kind: TransferKind, postings: Posting[]): Transfer {
  const legs = postings.filter((p) => p.amount !== 0);
  for (const leg of legs) {
    if (!Number.isSafeInteger(leg.amount)) throw new UnbalancedTransferError(`${kind}: ${leg.amount} is not whole kobo`);
  }
  const sum = legs.reduce((total, leg) => total + leg.amount, 0);
  if (sum !== 0) throw new UnbalancedTransferError(`${kind}: postings sum to ${sum}, not 0`);
  return { kind, postings: legs };
}

/** Money paid in from outside: the sandbox's top-up, or a provider-confirmed payment into a live funding account. */
export function walletFunding(a: { externalAccountId: string; walletId: string; amount: Kobo; live?: boolean }): Transfer {
  return balancedTransfer(a.live ? 'live_funding' : 'wallet_funding', [
    { accountId: a.externalAccountId, amount: -a.amount },
    { accountId: a.walletId, amount: a.amount },
  ]);
}

export function milestoneFunding(a: { buyerWalletId: string; escrowId: string; amount: Kobo }): Transfer {
  return balancedTransfer('milestone_funding', [
    { accountId: a.buyerWalletId, amount: -a.amount },
    { accountId: a.escrowId, amount: a.amount },
  ]);
}

/** Everything held goes back to the buyer, the buyer's prepaid fee share included: no release, no fee. */
export function refund(a: { escrowId: string; buyerWalletId: string; escrowBalance: Kobo }): Transfer {
  return balancedTransfer('refund', [
    { accountId: a.escrowId, amount: -a.escrowBalance },
    { accountId: a.buyerWalletId, amount: a.escrowBalance },
  ]);
}

export type SettlementTerms = {
  milestoneAmount: Kobo;
  milestoneFee: Kobo;
  commissionPayer: CommissionPayer;
  escrowBalance: Kobo;
};

/** The fee on a partial payment is the milestone's fee pro rata, so it never exceeds what was agreed at creation. */
export function feeOnPayment(paidToSeller: Kobo, terms: Pick<SettlementTerms, 'milestoneAmount' | 'milestoneFee'>): Kobo {
  if (terms.milestoneAmount === 0) return 0;
  return Math.floor((terms.milestoneFee * paidToSeller) / terms.milestoneAmount + 0.5);
}

/**
 * The most the seller can be paid out of this escrow: the milestone payment it holds, without the
 * buyer's prepaid fee share, and never more than the transaction amount (docs/decisions.md §6).
 */
export function maxSellerPayment(terms: SettlementTerms, transactionAmount: Kobo): Kobo {
  const buyerFeeShare = splitFee(terms.milestoneFee, terms.commissionPayer).buyer;
  return Math.max(0, Math.min(transactionAmount, terms.escrowBalance - buyerFeeShare, terms.milestoneAmount));
}

export type SettlementBreakdown = { toSeller: Kobo; toBuyer: Kobo; fee: Kobo };

export function settlementBreakdown(paidToSeller: Kobo, terms: SettlementTerms): SettlementBreakdown {
  const fee = feeOnPayment(paidToSeller, terms);
  const shares = splitFee(fee, terms.commissionPayer);
  const toSeller = paidToSeller - shares.seller;
  const toBuyer = terms.escrowBalance - paidToSeller - shares.buyer;
  if (toSeller < 0 || toBuyer < 0) {
    throw new UnbalancedTransferError(`settlement of ${paidToSeller} does not fit an escrow of ${terms.escrowBalance}`);
  }
  return { toSeller, toBuyer, fee };
}

/**
 * Pays `paidToSeller` of the milestone to the seller (less the seller's fee share), the fee to the
 * platform, and the rest back to the buyer. A full release is the case paidToSeller = milestoneAmount.
 */
export function settlement(
  kind: 'release' | 'dispute_settlement',
  a: { escrowId: string; sellerWalletId: string; buyerWalletId: string; feeAccountId: string; paidToSeller: Kobo; terms: SettlementTerms },
): { transfer: Transfer; breakdown: SettlementBreakdown } {
  const breakdown = settlementBreakdown(a.paidToSeller, a.terms);
  const transfer = balancedTransfer(kind, [
    { accountId: a.escrowId, amount: -a.terms.escrowBalance },
    { accountId: a.sellerWalletId, amount: breakdown.toSeller },
    { accountId: a.feeAccountId, amount: breakdown.fee },
    { accountId: a.buyerWalletId, amount: breakdown.toBuyer },
  ]);
  return { transfer, breakdown };
}
