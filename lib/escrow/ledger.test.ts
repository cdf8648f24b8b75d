import { describe, expect, it } from 'vitest';
import { fundingAmount, milestoneFee, DEFAULT_FEE_POLICY, COMMISSION_PAYERS } from './fees';
import {
  balancedTransfer,
  maxSellerPayment,
  refund,
  settlement,
  UnbalancedTransferError,
  walletFunding,
  type SettlementTerms,
} from './ledger';

const sum = (postings: { amount: number }[]) => postings.reduce((s, p) => s + p.amount, 0);

function fundedTerms(amount: number, payer: (typeof COMMISSION_PAYERS)[number]): SettlementTerms {
  const fee = milestoneFee(amount, DEFAULT_FEE_POLICY);
  return { milestoneAmount: amount, milestoneFee: fee, commissionPayer: payer, escrowBalance: fundingAmount(amount, fee, payer) };
}

describe('balancedTransfer', () => {
  it('refuses postings that do not sum to zero or are not whole kobo', () => {
    expect(() => balancedTransfer('refund', [{ accountId: 'a', amount: -5 }, { accountId: 'b', amount: 4 }])).toThrow(UnbalancedTransferError);
    expect(() => balancedTransfer('refund', [{ accountId: 'a', amount: -0.5 }, { accountId: 'b', amount: 0.5 }])).toThrow(UnbalancedTransferError);
  });

  it('drops zero legs', () => {
    expect(balancedTransfer('refund', [{ accountId: 'a', amount: 0 }]).postings).toEqual([]);
  });
});

describe('settlement', () => {
  it('releases a whole milestone to the seller less the fee, the fee to the platform, nothing to the buyer', () => {
    const terms = fundedTerms(500_000_00, 'SELLER_100');
    const { transfer, breakdown } = settlement('release', {
      escrowId: 'e', sellerWalletId: 's', buyerWalletId: 'b', feeAccountId: 'f', paidToSeller: 500_000_00, terms,
    });
    expect(breakdown).toEqual({ toSeller: 495_000_00, toBuyer: 0, fee: 5_000_00 });
    expect(sum(transfer.postings)).toBe(0);
  });

  it('with BUYER_100 the seller gets the whole amount and the escrow held the fee on top', () => {
    const terms = fundedTerms(100_000, 'BUYER_100');
    expect(terms.escrowBalance).toBe(101_000);
    const { breakdown } = settlement('release', {
      escrowId: 'e', sellerWalletId: 's', buyerWalletId: 'b', feeAccountId: 'f', paidToSeller: 100_000, terms,
    });
    expect(breakdown).toEqual({ toSeller: 100_000, toBuyer: 0, fee: 1_000 });
  });

  it('splits a dispute amount: seller share less its pro-rata fee, the rest to the buyer, always balanced', () => {
    for (const payer of COMMISSION_PAYERS) {
      const terms = fundedTerms(123_457, payer);
      const max = maxSellerPayment(terms, 10_000_000);
      expect(max).toBe(123_457);
      for (const paid of [0, 1, 61_728, max]) {
        const { transfer, breakdown } = settlement('dispute_settlement', {
          escrowId: 'e', sellerWalletId: 's', buyerWalletId: 'b', feeAccountId: 'f', paidToSeller: paid, terms,
        });
        expect(sum(transfer.postings)).toBe(0);
        expect(breakdown.toSeller + breakdown.toBuyer + breakdown.fee).toBe(terms.escrowBalance);
        expect(breakdown.toBuyer).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('caps the seller payment at the transaction amount', () => {
    expect(maxSellerPayment(fundedTerms(100_000, 'SELLER_100'), 40_000)).toBe(40_000);
  });

  it('refuses a settlement larger than the escrow', () => {
    const terms = fundedTerms(100_000, 'SELLER_100');
    expect(() =>
      settlement('dispute_settlement', { escrowId: 'e', sellerWalletId: 's', buyerWalletId: 'b', feeAccountId: 'f', paidToSeller: 100_001, terms }),
    ).toThrow(UnbalancedTransferError);
  });
});

describe('refund and funding', () => {
  it('returns the whole escrow to the buyer and funds wallets from outside', () => {
    expect(refund({ escrowId: 'e', buyerWalletId: 'b', escrowBalance: 101_000 }).postings).toEqual([
      { accountId: 'e', amount: -101_000 },
      { accountId: 'b', amount: 101_000 },
    ]);
    expect(sum(walletFunding({ externalAccountId: 'x', walletId: 'w', amount: 5 }).postings)).toBe(0);
  });
});
