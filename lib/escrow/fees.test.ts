import { describe, expect, it } from 'vitest';
import { DEFAULT_FEE_POLICY, fundingAmount, milestoneFee, splitFee } from './fees';

describe('milestoneFee', () => {
  it('is 1% by default, rounded half up at the kobo', () => {
    expect(milestoneFee(10_000_00, DEFAULT_FEE_POLICY)).toBe(10_000);
    expect(milestoneFee(150, DEFAULT_FEE_POLICY)).toBe(2); // 1.5 kobo rounds up
    expect(milestoneFee(149, DEFAULT_FEE_POLICY)).toBe(1);
    expect(milestoneFee(0, DEFAULT_FEE_POLICY)).toBe(0);
  });

  it('never exceeds the cap', () => {
    expect(milestoneFee(100_000_000_00, DEFAULT_FEE_POLICY)).toBe(2_000_000);
    expect(milestoneFee(100_000_000_00, { basisPoints: 250, capKobo: null })).toBe(250_000_000);
  });
});

describe('splitFee', () => {
  it('puts the whole fee on the payer named', () => {
    expect(splitFee(1_001, 'SELLER_100')).toEqual({ buyer: 0, seller: 1_001 });
    expect(splitFee(1_001, 'BUYER_100')).toEqual({ buyer: 1_001, seller: 0 });
  });

  it('splits 50/50 with the odd kobo on the seller, and the shares always add up', () => {
    expect(splitFee(1_001, 'SPLIT_50_50')).toEqual({ buyer: 500, seller: 501 });
    for (const fee of [0, 1, 2, 999, 2_000_000]) {
      const { buyer, seller } = splitFee(fee, 'SPLIT_50_50');
      expect(buyer + seller).toBe(fee);
    }
  });
});

describe('fundingAmount', () => {
  it("adds the buyer's share of the fee to the milestone amount", () => {
    expect(fundingAmount(100_000, 1_000, 'SELLER_100')).toBe(100_000);
    expect(fundingAmount(100_000, 1_000, 'BUYER_100')).toBe(101_000);
    expect(fundingAmount(100_000, 1_001, 'SPLIT_50_50')).toBe(100_500);
  });
});
