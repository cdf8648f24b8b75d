import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedEndingActions, decideCancel, decideCancellationAnswer, decideTerminate, endingPlan, type EndingMilestone, type EndingPlan, type EndingState } from './ending';
import { fundingAmount, type CommissionPayer } from './fees';
import { milestoneFunding, refund, settlement, type Transfer } from './ledger';
import { decideMilestoneAction, MILESTONE_STATUSES, type MilestoneAction, type MilestoneStatus } from './milestone-machine';

const NOW = new Date('2026-12-01T12:00:00Z');
const LATER = new Date('2026-12-10T12:00:00Z');
const EARLIER = new Date('2026-11-20T12:00:00Z');

const m = (position: number, status: MilestoneStatus, dueDate = LATER): EndingMilestone => ({ id: `m${position}`, position, status, dueDate });
const state = (milestones: EndingMilestone[], extra: Partial<EndingState> = {}): EndingState => ({
  ended: null,
  milestones,
  cancellationRequest: null,
  hasResolvedDispute: false,
  ...extra,
});
const afterEnding = (milestones: readonly EndingMilestone[], plan: EndingPlan) => milestones.map((x) => (plan.canceled.includes(x.id) ? { ...x, status: 'CANCELED' as const } : x));
const request = (requestedBy: 'buyer' | 'seller') => ({ requestedBy, reason: 'Plans changed', requestedAt: EARLIER });

describe('cancellation', () => {
  it('is at once for either party while no escrow holds money, completed milestones staying paid', () => {
    for (const by of ['buyer', 'seller'] as const) {
      expect(decideCancel(state([m(1, 'PENDING_FUNDING'), m(2, 'PENDING_FUNDING')]), by, NOW)).toEqual({
        ok: true, kind: 'canceled', why: 'nothing_funded', plan: { canceled: ['m1', 'm2'], refunded: [] },
      });
      expect(decideCancel(state([m(1, 'COMPLETED'), m(2, 'PENDING_FUNDING')]), by, NOW)).toMatchObject({ ok: true, kind: 'canceled', plan: { canceled: ['m2'], refunded: [] } });
    }
  });

  it('is a request once a milestone is funded, answered by the other party only', () => {
    const funded = state([m(1, 'IN_PROGRESS'), m(2, 'PENDING_FUNDING')]);
    expect(decideCancel(funded, 'seller', NOW)).toEqual({ ok: true, kind: 'requested' });
    expect(decideCancel(funded, 'buyer', NOW)).toEqual({ ok: true, kind: 'requested' });
    const asked = { ...funded, cancellationRequest: request('seller') };
    expect(decideCancel(asked, 'seller', NOW)).toMatchObject({ ok: false, code: 'INVALID_STATE', message: expect.stringContaining('already waiting') });
    expect(decideCancel(asked, 'buyer', NOW)).toMatchObject({ ok: false, code: 'INVALID_STATE', message: expect.stringContaining('approve or decline') });
    expect(decideCancellationAnswer(asked, 'seller', 'approve')).toMatchObject({ ok: false, code: 'WRONG_PARTY' });
    expect(decideCancellationAnswer(asked, 'seller', 'decline')).toMatchObject({ ok: false, code: 'WRONG_PARTY' });
    expect(decideCancellationAnswer(asked, 'buyer', 'approve')).toEqual({ ok: true, kind: 'canceled', plan: { canceled: ['m1', 'm2'], refunded: ['m1'] } });
    expect(decideCancellationAnswer(asked, 'buyer', 'decline')).toEqual({ ok: true, kind: 'declined' });
    expect(decideCancellationAnswer(funded, 'buyer', 'approve')).toMatchObject({ ok: false, code: 'INVALID_STATE', message: 'There is no cancellation request to answer.' });
  });

  it('is at once for the buyer alone past an undelivered funded milestone’s due date, never for the seller', () => {
    const late = state([m(1, 'IN_PROGRESS', EARLIER)]);
    expect(decideCancel(late, 'buyer', NOW)).toEqual({ ok: true, kind: 'canceled', why: 'past_due', plan: { canceled: ['m1'], refunded: ['m1'] } });
    expect(decideCancel(late, 'seller', NOW)).toEqual({ ok: true, kind: 'requested' });
    // At the due date itself it is not yet past.
    expect(decideCancel(state([m(1, 'IN_PROGRESS', NOW)]), 'buyer', NOW)).toEqual({ ok: true, kind: 'requested' });
  });

  it('is refused while a milestone is inspected, returned or disputed, and once the transaction has ended', () => {
    for (const busy of ['UNDER_INSPECTION', 'DELIVERY_RETURNED_AWAITING_APPROVAL', 'DELIVERY_RETURN_REJECTED', 'IN_DISPUTE'] as const) {
      const s = state([m(1, busy, EARLIER), m(2, 'IN_PROGRESS', EARLIER)]);
      for (const by of ['buyer', 'seller'] as const) expect(decideCancel(s, by, NOW)).toMatchObject({ ok: false, code: 'INVALID_STATE' });
      // An approval that arrives after a delivery is refused too: the delivery won the race.
      expect(decideCancellationAnswer({ ...s, cancellationRequest: request('seller') }, 'buyer', 'approve')).toMatchObject({ ok: false, code: 'INVALID_STATE' });
      expect(decideCancellationAnswer({ ...s, cancellationRequest: request('seller') }, 'buyer', 'decline')).toEqual({ ok: true, kind: 'declined' });
    }
    expect(decideCancel(state([m(1, 'CANCELED')], { ended: 'CANCELED' }), 'buyer', NOW)).toMatchObject({ ok: false, message: expect.stringContaining('already ended') });
    expect(decideCancel(state([m(1, 'COMPLETED')]), 'buyer', NOW)).toMatchObject({ ok: false, message: expect.stringContaining('nothing left') });
  });
});

describe('termination', () => {
  it('needs a resolved dispute, then ends the rest at once for either party', () => {
    const rest = [m(1, 'DISPUTE_RESOLVED'), m(2, 'IN_PROGRESS'), m(3, 'PENDING_FUNDING')];
    expect(decideTerminate(state(rest))).toMatchObject({ ok: false, message: expect.stringContaining('resolved') });
    expect(decideTerminate(state(rest, { hasResolvedDispute: true }))).toEqual({ ok: true, plan: { canceled: ['m2', 'm3'], refunded: ['m2'] } });
    expect(decideTerminate(state([m(1, 'DISPUTE_RESOLVED'), m(2, 'IN_DISPUTE')], { hasResolvedDispute: true })).ok).toBe(false);
    expect(decideTerminate(state([m(1, 'DISPUTE_RESOLVED')], { hasResolvedDispute: true })).ok).toBe(false);
    expect(decideTerminate(state(afterEnding(rest, endingPlan(rest)), { hasResolvedDispute: true, ended: 'TERMINATED' }))).toMatchObject({ ok: false, message: expect.stringContaining('already ended') });
  });
});

describe('allowedEndingActions', () => {
  it('names each party’s ending actions', () => {
    const asked = state([m(1, 'IN_PROGRESS')], { cancellationRequest: request('buyer') });
    expect(allowedEndingActions(asked, NOW)).toEqual({ buyer: [], seller: ['approve_cancellation', 'decline_cancellation'] });
    expect(allowedEndingActions(state([m(1, 'PENDING_FUNDING')]), NOW)).toEqual({ buyer: ['cancel'], seller: ['cancel'] });
    expect(allowedEndingActions(state([m(1, 'DISPUTE_RESOLVED'), m(2, 'PENDING_FUNDING')], { hasResolvedDispute: true }), NOW)).toEqual({
      buyer: ['cancel', 'terminate'],
      seller: ['cancel', 'terminate'],
    });
  });
});

/**
 * The money of one transaction under any sequence of the parties' steps and endings, posted with the
 * ledger's own transfers: nothing is made or lost, and a canceled milestone's escrow is empty.
 */
describe('money under any sequence of steps, cancellations and terminations', () => {
  type Op =
    | { kind: 'step'; action: MilestoneAction; position: number }
    | { kind: 'cancel' | 'approve' | 'decline'; by: 'buyer' | 'seller'; late: boolean }
    | { kind: 'terminate'; resolve: number };

  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('step' as const), action: fc.constantFrom<MilestoneAction>('fund', 'deliver', 'approve', 'reject', 'approve_return', 'disapprove_return', 'open_dispute'), position: fc.integer({ min: 1, max: 3 }) }),
    fc.record({ kind: fc.constantFrom('cancel' as const, 'approve' as const, 'decline' as const), by: fc.constantFrom('buyer' as const, 'seller' as const), late: fc.boolean() }),
    fc.record({ kind: fc.constant('terminate' as const), resolve: fc.integer({ min: 1, max: 3 }) }),
  );

  it('keeps every kobo in escrow, the wallets, fees or outside, and none in a canceled milestone', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5_000_000 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom<CommissionPayer>('SELLER_100', 'BUYER_100', 'SPLIT_50_50'),
        fc.array(op, { maxLength: 40 }),
        (amounts, payer, ops) => {
          const start = 100_000_000;
          const balances = new Map<string, number>([['buyer', start], ['seller', 0], ['fees', 0]]);
          const post = (t: Transfer) => t.postings.forEach((p) => balances.set(p.accountId, (balances.get(p.accountId) ?? 0) + p.amount));
          const fees = amounts.map((a) => Math.floor(a / 100));
          let s = state(amounts.map((_, i) => m(i + 1, 'PENDING_FUNDING')));
          const end = (plan: EndingPlan, ended: 'CANCELED' | 'TERMINATED') => {
            for (const id of plan.refunded) post(refund({ escrowId: id, buyerWalletId: 'buyer', escrowBalance: balances.get(id) ?? 0 }));
            s = { ...s, ended, cancellationRequest: null, milestones: afterEnding(s.milestones, plan) };
          };
          for (const o of ops) {
            if (o.kind === 'step') {
              const target = s.milestones.find((x) => x.position === o.position);
              if (!target) continue;
              const decision = decideMilestoneAction(o.action, target, s.milestones);
              if (!decision.ok) continue;
              const i = target.position - 1;
              const terms = { milestoneAmount: amounts[i]!, milestoneFee: fees[i]!, commissionPayer: payer, escrowBalance: balances.get(target.id) ?? 0 };
              if (o.action === 'fund') post(milestoneFunding({ buyerWalletId: 'buyer', escrowId: target.id, amount: fundingAmount(amounts[i]!, fees[i]!, payer) }));
              if (o.action === 'approve') post(settlement('release', { escrowId: target.id, sellerWalletId: 'seller', buyerWalletId: 'buyer', feeAccountId: 'fees', paidToSeller: amounts[i]!, terms }).transfer);
              if (o.action === 'approve_return') post(refund({ escrowId: target.id, buyerWalletId: 'buyer', escrowBalance: terms.escrowBalance }));
              s = { ...s, milestones: s.milestones.map((x) => (x.id === target.id ? { ...x, status: decision.to } : x)) };
            } else if (o.kind === 'terminate') {
              // A dispute of the transaction resolved by a verdict paying the seller half.
              const disputed = s.milestones.find((x) => x.position === o.resolve && x.status === 'IN_DISPUTE');
              if (disputed) {
                const i = disputed.position - 1;
                const terms = { milestoneAmount: amounts[i]!, milestoneFee: fees[i]!, commissionPayer: payer, escrowBalance: balances.get(disputed.id) ?? 0 };
                post(settlement('dispute_settlement', { escrowId: disputed.id, sellerWalletId: 'seller', buyerWalletId: 'buyer', feeAccountId: 'fees', paidToSeller: Math.floor(amounts[i]! / 2), terms }).transfer);
                s = { ...s, hasResolvedDispute: true, milestones: s.milestones.map((x) => (x.id === disputed.id ? { ...x, status: 'DISPUTE_RESOLVED' as const } : x)) };
              }
              const decision = decideTerminate(s);
              if (decision.ok) end(decision.plan, 'TERMINATED');
            } else {
              const now = o.late ? new Date(LATER.getTime() + 86_400_000) : NOW;
              if (o.kind === 'cancel') {
                const decision = decideCancel(s, o.by, now);
                if (decision.ok && decision.kind === 'canceled') end(decision.plan, 'CANCELED');
                if (decision.ok && decision.kind === 'requested') s = { ...s, cancellationRequest: { requestedBy: o.by, reason: 'r', requestedAt: now } };
              } else {
                const decision = decideCancellationAnswer(s, o.by, o.kind);
                if (decision.ok && decision.kind === 'canceled') end(decision.plan, 'CANCELED');
                if (decision.ok && decision.kind === 'declined') s = { ...s, cancellationRequest: null };
              }
            }
          }
          const total = [...balances.values()].reduce((a, b) => a + b, 0);
          expect(total).toBe(start);
          for (const x of s.milestones) {
            const held = balances.get(x.id) ?? 0;
            expect(held).toBeGreaterThanOrEqual(0);
            if (x.status === 'CANCELED' || x.status === 'PENDING_FUNDING') expect(held).toBe(0);
          }
          if (s.ended) expect(s.milestones.every((x) => MILESTONE_STATUSES.includes(x.status) && !['IN_PROGRESS', 'PENDING_FUNDING'].includes(x.status))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
