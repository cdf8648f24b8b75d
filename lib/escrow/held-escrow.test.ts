import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMISSION_PAYERS, fundingAmount, milestoneFee, type CommissionPayer } from './fees';
import { escrowFor, heldPrincipal, partialAcceptanceSettlement, refundBreakdown, releaseOfHeld, sellerRefund } from './held-escrow';
import { settlement, UnbalancedTransferError, type SettlementTerms } from './ledger';

const accounts = { escrowId: 'e', sellerWalletId: 's', buyerWalletId: 'b', feeAccountId: 'f' };

function funded(amount: number, payer: CommissionPayer, basisPoints = 100): SettlementTerms {
  const fee = milestoneFee(amount, { basisPoints, capKobo: null });
  return { milestoneAmount: amount, milestoneFee: fee, commissionPayer: payer, escrowBalance: fundingAmount(amount, fee, payer) };
}

describe('heldPrincipal', () => {
  it('is the milestone amount while nothing is refunded, whoever pays the fee', () => {
    for (const payer of COMMISSION_PAYERS) expect(heldPrincipal(funded(123_457, payer))).toBe(123_457);
  });

  it('is 0 for an empty escrow', () => {
    expect(heldPrincipal({ ...funded(100_000, 'BUYER_100'), escrowBalance: 0 })).toBe(0);
  });

  it('refuses a balance no part of the milestone makes', () => {
    // 1% of 100 kobo rounds to 1 kobo from 50 kobo up: 50 kobo held is 51 in escrow, and 50 is nobody's balance.
    const terms = funded(100, 'BUYER_100');
    expect(escrowFor(49, terms)).toBe(49);
    expect(escrowFor(50, terms)).toBe(51);
    expect(() => heldPrincipal({ ...terms, escrowBalance: 50 })).toThrow(UnbalancedTransferError);
    expect(() => heldPrincipal({ ...terms, escrowBalance: terms.escrowBalance + 1 })).toThrow(UnbalancedTransferError);
  });
});

describe('sellerRefund', () => {
  it('gives the buyer its prepaid fee share on the refunded part back', () => {
    const terms = funded(100_000, 'BUYER_100'); // escrow 101,000
    const { transfer, breakdown } = sellerRefund({ escrowId: 'e', buyerWalletId: 'b', principal: 40_000, terms });
    expect(breakdown).toEqual({ toBuyer: 40_400, principal: 40_000, feeShare: 400, escrowAfter: 60_600, principalAfter: 60_000 });
    expect(transfer.postings).toEqual([
      { accountId: 'e', amount: -40_400 },
      { accountId: 'b', amount: 40_400 },
    ]);
  });

  it('with SELLER_100 moves exactly the amount, and everything held empties the escrow', () => {
    const terms = funded(100_000, 'SELLER_100');
    expect(refundBreakdown(100_000, terms)).toMatchObject({ toBuyer: 100_000, escrowAfter: 0, principalAfter: 0 });
    expect(refundBreakdown(100_000, funded(100_000, 'BUYER_100'))).toMatchObject({ toBuyer: 101_000, escrowAfter: 0 });
  });

  it('refuses 0 and more than is held', () => {
    const terms = funded(100_000, 'SPLIT_50_50');
    expect(() => refundBreakdown(0, terms)).toThrow(UnbalancedTransferError);
    expect(() => refundBreakdown(100_001, terms)).toThrow(UnbalancedTransferError);
  });
});

describe('releases after refunds', () => {
  it('with nothing refunded, releaseOfHeld is the full release', () => {
    for (const payer of COMMISSION_PAYERS) {
      const terms = funded(500_000_00, payer);
      expect(releaseOfHeld({ ...accounts, terms })).toEqual(settlement('release', { ...accounts, paidToSeller: 500_000_00, terms }));
    }
  });

  it('pays the principal held after a refund, and empties the escrow', () => {
    const terms = funded(100_000, 'SPLIT_50_50'); // fee 1,000: buyer 500, seller 500; escrow 100,500
    const { breakdown: refunded } = sellerRefund({ escrowId: 'e', buyerWalletId: 'b', principal: 30_000, terms });
    const { breakdown } = releaseOfHeld({ ...accounts, terms: { ...terms, escrowBalance: refunded.escrowAfter } });
    expect(breakdown).toEqual({ toSeller: 70_000 - 350, toBuyer: 0, fee: 700 });
  });

  it('partial acceptance refuses 0 and everything held', () => {
    const terms = funded(100_000, 'SELLER_100');
    expect(() => partialAcceptanceSettlement({ ...accounts, releaseAmount: 0, terms })).toThrow(UnbalancedTransferError);
    expect(() => partialAcceptanceSettlement({ ...accounts, releaseAmount: 100_000, terms })).toThrow(UnbalancedTransferError);
    expect(partialAcceptanceSettlement({ ...accounts, releaseAmount: 60_000, terms }).breakdown).toEqual({ toSeller: 59_400, toBuyer: 40_000, fee: 600 });
  });

  it('any refunds then any settlement: balanced, never negative, nothing created or lost', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_00 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.constantFrom(...COMMISSION_PAYERS),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (amount, basisPoints, payer, refunds, release) => {
          let terms = funded(amount, payer, basisPoints);
          const funding = terms.escrowBalance;
          let toBuyer = 0;
          for (const share of refunds) {
            const held = heldPrincipal(terms);
            if (held === 0) break;
            const { breakdown } = sellerRefund({ escrowId: 'e', buyerWalletId: 'b', principal: Math.max(1, Math.floor(share * held)), terms });
            expect(breakdown.feeShare).toBeGreaterThanOrEqual(0);
            toBuyer += breakdown.toBuyer;
            terms = { ...terms, escrowBalance: breakdown.escrowAfter };
            expect(heldPrincipal(terms)).toBe(breakdown.principalAfter);
          }
          const held = heldPrincipal(terms);
          const { transfer, breakdown } = settlement('release', { ...accounts, paidToSeller: Math.floor(release * held), terms });
          expect(transfer.postings.reduce((s, p) => s + p.amount, 0)).toBe(0);
          expect(Math.min(breakdown.toBuyer, breakdown.toSeller, breakdown.fee)).toBeGreaterThanOrEqual(0);
          expect(toBuyer + breakdown.toBuyer + breakdown.toSeller + breakdown.fee).toBe(funding);
          expect(breakdown.fee).toBeLessThanOrEqual(terms.milestoneFee);
        },
      ),
    );
  });
});
