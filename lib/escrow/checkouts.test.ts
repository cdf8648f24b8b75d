import { describe, expect, it } from 'vitest';
import {
  callbackUrlAllowed,
  canMoveCheckout,
  CHECKOUT_STATUSES,
  checkoutExpiresAt,
  checkoutReference,
  checkoutStatusAt,
  decideCheckoutFailure,
  decideCheckoutPayment,
  expiresNow,
  type CheckoutMilestone,
  type CheckoutState,
} from './checkouts';
import type { MilestoneState } from './milestone-machine';

const CREATED = new Date('2026-03-10T09:00:00.000Z');
const EXPIRES = checkoutExpiresAt(CREATED);
const accounts = { externalAccountId: 'outside', buyerWalletId: 'wallet', escrowId: 'escrow' };
const m1: MilestoneState = { id: 'm1', status: 'PENDING_FUNDING', position: 1 };

function checkout(over: Partial<CheckoutState> = {}): CheckoutState {
  return { status: 'PENDING', purpose: 'milestone', amount: 101_000, expiresAt: EXPIRES, ...over };
}
function milestone(over: Partial<CheckoutMilestone> = {}): CheckoutMilestone {
  return { state: m1, siblings: [m1], ended: null, fundingAmount: 101_000, ...over };
}

describe('checkout statuses', () => {
  it('move only forward; a failed or expired checkout can still be paid', () => {
    const allowed = CHECKOUT_STATUSES.flatMap((from) => CHECKOUT_STATUSES.filter((to) => canMoveCheckout(from, to)).map((to) => `${from}→${to}`));
    expect(allowed.sort()).toEqual(['EXPIRED→PAID', 'FAILED→PAID', 'PENDING→EXPIRED', 'PENDING→FAILED', 'PENDING→PAID'].sort());
  });

  it('expire 30 minutes after creation, at that instant and not a millisecond before', () => {
    expect(EXPIRES).toEqual(new Date('2026-03-10T09:30:00.000Z'));
    expect(checkoutStatusAt(checkout(), new Date(EXPIRES.getTime() - 1))).toBe('PENDING');
    expect(checkoutStatusAt(checkout(), EXPIRES)).toBe('EXPIRED');
    expect(expiresNow(checkout(), EXPIRES)).toBe(true);
    expect(expiresNow(checkout({ status: 'PAID' }), EXPIRES)).toBe(false);
  });

  it('fail only while pending', () => {
    expect(decideCheckoutFailure(checkout(), CREATED)).toEqual({ ok: true, to: 'FAILED' });
    expect(decideCheckoutFailure(checkout(), EXPIRES)).toMatchObject({ ok: false, code: 'INVALID_STATE' });
    expect(decideCheckoutFailure(checkout({ status: 'PAID' }), CREATED)).toMatchObject({ ok: false, code: 'INVALID_STATE' });
  });
});

describe('decideCheckoutPayment', () => {
  it('credits the wallet, then funds the milestone exactly as funding does', () => {
    const decision = decideCheckoutPayment(checkout(), CREATED, accounts, milestone());
    expect(decision).toMatchObject({ ok: true, kind: 'paid', applied: true, notAppliedReason: null, milestoneTo: 'IN_PROGRESS' });
    if (decision.kind !== 'paid') throw new Error('not paid');
    expect(decision.transfers.map((t) => [t.kind, t.postings])).toEqual([
      ['checkout_payment', [{ accountId: 'outside', amount: -101_000 }, { accountId: 'wallet', amount: 101_000 }]],
      ['milestone_funding', [{ accountId: 'wallet', amount: -101_000 }, { accountId: 'escrow', amount: 101_000 }]],
    ]);
  });

  it('a wallet checkout only credits', () => {
    const decision = decideCheckoutPayment(checkout({ purpose: 'wallet' }), CREATED, { ...accounts, escrowId: null }, null);
    expect(decision).toMatchObject({ kind: 'paid', applied: true, milestoneTo: null });
    if (decision.kind === 'paid') expect(decision.transfers.map((t) => t.kind)).toEqual(['checkout_payment']);
  });

  it('a milestone that can no longer be funded: the money stays in the wallet, and why', () => {
    const funded = { ...m1, status: 'IN_PROGRESS' as const };
    const cases: [CheckoutMilestone, RegExp][] = [
      [milestone({ state: funded, siblings: [funded] }), /funded/],
      [milestone({ ended: 'CANCELED' }), /ended/],
      [milestone({ state: { ...m1, id: 'm2', position: 2 }, siblings: [m1, { ...m1, id: 'm2', position: 2 }] }), /Milestone 1 must be funded/],
      [milestone({ fundingAmount: 100_000 }), /different amount/],
    ];
    for (const [m, why] of cases) {
      const decision = decideCheckoutPayment(checkout(), CREATED, accounts, m);
      expect(decision).toMatchObject({ kind: 'paid', applied: false, milestoneTo: null, notAppliedReason: expect.stringMatching(why) });
      if (decision.kind === 'paid') expect(decision.transfers.map((t) => t.kind)).toEqual(['checkout_payment']);
    }
  });

  it('a payment for a failed or expired checkout is credited, not applied', () => {
    expect(decideCheckoutPayment(checkout({ status: 'FAILED' }), CREATED, accounts, milestone())).toMatchObject({ kind: 'paid', applied: false, notAppliedReason: expect.stringMatching(/failed/) });
    expect(decideCheckoutPayment(checkout({ status: 'EXPIRED' }), CREATED, accounts, milestone())).toMatchObject({ kind: 'paid', applied: false });
    // Still PENDING on the record, but paid after its expiry.
    expect(decideCheckoutPayment(checkout(), EXPIRES, accounts, milestone())).toMatchObject({ kind: 'paid', applied: false, notAppliedReason: expect.stringMatching(/expired/) });
    // Paid before its expiry, confirmed after: applied.
    expect(decideCheckoutPayment(checkout(), new Date(EXPIRES.getTime() - 1), accounts, milestone())).toMatchObject({ kind: 'paid', applied: true });
  });

  it('the same reference confirmed twice credits once', () => {
    const first = decideCheckoutPayment(checkout(), CREATED, accounts, milestone());
    expect(first.kind).toBe('paid');
    expect(decideCheckoutPayment(checkout({ status: 'PAID' }), CREATED, accounts, milestone())).toEqual({ ok: true, kind: 'already_paid' });
  });
});

describe('checkout references and callbacks', () => {
  it('CO_ and 20 unambiguous characters', () => {
    expect(checkoutReference(new Uint8Array(32).fill(7))).toMatch(/^CO_[A-HJ-NP-Z2-9]{20}$/);
  });

  it('https anywhere; plain http only with test keys to loopback', () => {
    expect(callbackUrlAllowed('https://shop.example/paid', 'live')).toBe(true);
    expect(callbackUrlAllowed('http://shop.example/paid', 'test')).toBe(false);
    expect(callbackUrlAllowed('http://127.0.0.1:3000/paid', 'test')).toBe(true);
    expect(callbackUrlAllowed('http://localhost:3000/paid', 'live')).toBe(false);
    expect(callbackUrlAllowed('javascript:alert(1)', 'test')).toBe(false);
    expect(callbackUrlAllowed('not a url', 'test')).toBe(false);
  });
});
