import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canMovePayout, isInFlight, PAYOUT_STATUSES, payoutCreation, payoutReference, payoutTransfer, type PayoutStatus } from './payouts';

const accounts = { walletId: 'wallet', inFlightId: 'in-flight', externalId: 'outside' };

describe('payout statuses', () => {
  it('move only forward: PENDING → PROCESSING → PAID | FAILED, PAID → REVERSED', () => {
    const allowed = PAYOUT_STATUSES.flatMap((from) => PAYOUT_STATUSES.filter((to) => canMovePayout(from, to)).map((to) => `${from}→${to}`));
    expect(allowed.sort()).toEqual(['PAID→REVERSED', 'PENDING→FAILED', 'PENDING→PAID', 'PENDING→PROCESSING', 'PROCESSING→FAILED', 'PROCESSING→PAID'].sort());
  });

  it('refuse a move the machine does not allow', () => {
    expect(() => payoutTransfer('FAILED', 'PAID', 100, accounts)).toThrow();
    expect(() => payoutTransfer('REVERSED', 'REVERSED', 100, accounts)).toThrow();
    expect(() => payoutTransfer('PROCESSING', 'REVERSED', 100, accounts)).toThrow();
  });

  it('count PENDING and PROCESSING as in flight', () => {
    expect(PAYOUT_STATUSES.filter(isInFlight)).toEqual(['PENDING', 'PROCESSING']);
  });
});

describe('payout money', () => {
  /** Applies every allowed move of `attempts` in turn; returns each account's balance and the status. */
  function run(amount: number, attempts: PayoutStatus[]) {
    const balances = new Map<string, number>([
      ['wallet', amount],
      ['in-flight', 0],
      ['outside', 0],
    ]);
    const post = (postings: { accountId: string; amount: number }[]) => {
      expect(postings.reduce((s, p) => s + p.amount, 0)).toBe(0);
      for (const p of postings) balances.set(p.accountId, balances.get(p.accountId)! + p.amount);
    };
    post(payoutCreation(amount, accounts).postings);
    let status: PayoutStatus = 'PENDING';
    let returned = 0;
    for (const to of attempts) {
      if (!canMovePayout(status, to)) continue;
      const transfer = payoutTransfer(status, to, amount, accounts);
      if (transfer) post(transfer.postings);
      if (to === 'FAILED' || to === 'REVERSED') returned++;
      status = to;
    }
    return { balances, status, returned };
  }

  it('is where the status says, whatever moves are tried, and goes back to the wallet at most once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e12 }), fc.array(fc.constantFrom(...PAYOUT_STATUSES.filter((s) => s !== 'PENDING')), { maxLength: 8 }), (amount, attempts) => {
        const { balances, status, returned } = run(amount, attempts);
        const expected = {
          PENDING: [0, amount, 0],
          PROCESSING: [0, amount, 0],
          PAID: [0, 0, amount],
          FAILED: [amount, 0, 0],
          REVERSED: [amount, 0, 0],
        }[status];
        expect([balances.get('wallet'), balances.get('in-flight'), balances.get('outside')]).toEqual(expected);
        expect(returned).toBeLessThanOrEqual(1);
        for (const balance of [balances.get('wallet')!, balances.get('in-flight')!]) expect(balance).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('moves nothing when a payout goes from PENDING to PROCESSING', () => {
    expect(payoutTransfer('PENDING', 'PROCESSING', 500, accounts)).toBeNull();
  });
});

describe('payoutReference', () => {
  it('is PO_ and 20 unambiguous characters', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (bytes) => {
        expect(payoutReference(bytes)).toMatch(/^PO_[A-HJ-NP-Z2-9]{20}$/);
      }),
    );
  });
});
