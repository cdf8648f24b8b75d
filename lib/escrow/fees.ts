import { basisPointsOf, type Kobo } from './money';

export const COMMISSION_PAYERS = ['SELLER_100', 'BUYER_100', 'SPLIT_50_50'] as const;
export type CommissionPayer = (typeof COMMISSION_PAYERS)[number];

export type FeePolicy = { basisPoints: number; capKobo: Kobo | null };

export const DEFAULT_FEE_POLICY: FeePolicy = { basisPoints: 100, capKobo: 2_000_000 };

export function milestoneFee(amount: Kobo, policy: FeePolicy): Kobo {
  const fee = basisPointsOf(amount, policy.basisPoints);
  return policy.capKobo === null ? fee : Math.min(fee, policy.capKobo);
}

export type FeeShares = { buyer: Kobo; seller: Kobo };

/** SPLIT_50_50 gives the odd kobo to the seller, so the buyer never pays more than half. */
export function splitFee(fee: Kobo, payer: CommissionPayer): FeeShares {
  switch (payer) {
    case 'SELLER_100':
      return { buyer: 0, seller: fee };
    case 'BUYER_100':
      return { buyer: fee, seller: 0 };
    case 'SPLIT_50_50': {
      const buyer = Math.floor(fee / 2);
      return { buyer, seller: fee - buyer };
    }
  }
}

/** What the buyer's wallet pays into escrow to fund a milestone. */
export function fundingAmount(amount: Kobo, fee: Kobo, payer: CommissionPayer): Kobo {
  return amount + splitFee(fee, payer).buyer;
}
