import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addBusinessDays, addCalendarDays } from './business-days';
import { milestoneDeadlines, PARTIAL_ACCEPTANCE_RESPONSE_BUSINESS_DAYS } from './deadlines';
import type { DisputeStatus } from './dispute-machine';
import { COMMISSION_PAYERS, fundingAmount, milestoneFee, type CommissionPayer } from './fees';
import { heldPrincipal, partialAcceptanceSettlement, releaseOfHeld, sellerRefund } from './held-escrow';
import { dueLapses, type LapseMilestone } from './lapses';
import { maxSellerPayment, refund, settlement, type SettlementTerms, type Transfer } from './ledger';
import { decideMilestoneAction, isFinished, transactionProgress, type MilestoneAction, type MilestoneState } from './milestone-machine';
import { holidaySet, NIGERIAN_PUBLIC_HOLIDAYS } from './nigerian-holidays';
import { CHOICES } from './turns';
import {
  allowedPartialOutcomeActions,
  decidePartialAcceptanceAnswer,
  decideProposePartialAcceptance,
  decideSellerRefund,
  owedPartialOutcomeActions,
  withdrawOnBuyerAnswer,
  type PartialOutcomeMilestone,
} from './partial-outcomes';

const holidays = holidaySet(NIGERIAN_PUBLIC_HOLIDAYS);
const calendar = { holidays, disputeIdFor: (id: string) => `opened-${id}` };
const NOW = new Date('2026-03-10T09:00:00.000Z'); // a Tuesday, no holiday near
const accounts = { escrowId: 'escrow', sellerWalletId: 'seller', buyerWalletId: 'buyer', feeAccountId: 'fees' };

function terms(amount = 100_000, payer: CommissionPayer = 'SELLER_100', basisPoints = 100): SettlementTerms {
  const fee = milestoneFee(amount, { basisPoints, capKobo: null });
  return { milestoneAmount: amount, milestoneFee: fee, commissionPayer: payer, escrowBalance: fundingAmount(amount, fee, payer) };
}

function milestone(over: Partial<PartialOutcomeMilestone> = {}): PartialOutcomeMilestone {
  return { status: 'UNDER_INSPECTION', terms: terms(), inspectionDuration: 3, partialAcceptance: null, disputeStatus: null, ...over };
}

function proposed(m: PartialOutcomeMilestone, releaseAmount: number): PartialOutcomeMilestone {
  const decision = decideProposePartialAcceptance(m, 'buyer', { releaseAmount, reason: 'two of five rooms unpainted' }, NOW, holidays);
  if (!decision.ok) throw new Error(decision.message);
  return { ...m, partialAcceptance: decision.partialAcceptance };
}

describe('the REFUNDED status', () => {
  it('is finished: nothing more happens to the milestone, and the transaction moves past it', () => {
    expect(isFinished('REFUNDED')).toBe(true);
    const ms: MilestoneState[] = [
      { id: 'a', status: 'REFUNDED', position: 1 },
      { id: 'b', status: 'IN_PROGRESS', position: 2 },
    ];
    expect(transactionProgress(ms)).toMatchObject({ status: 'MILESTONE_IN_PROGRESS', current: ms[1] });
    expect(transactionProgress([ms[0]!])).toMatchObject({ status: 'COMPLETED', isCompleted: true });
  });
});

describe('decideSellerRefund', () => {
  it('is the seller’s alone', () => {
    expect(decideSellerRefund(milestone(), 'buyer', 1_000, NOW)).toMatchObject({ ok: false, code: 'WRONG_PARTY' });
  });

  it('refuses 0, and more than is held, naming the range', () => {
    expect(decideSellerRefund(milestone(), 'seller', 0, NOW)).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    const over = decideSellerRefund(milestone(), 'seller', 100_001, NOW);
    expect(over).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    if (!over.ok) expect(over.message).toContain('₦1,000.00');
  });

  it('a part keeps the status; everything held ends the milestone REFUNDED', () => {
    for (const status of ['IN_PROGRESS', 'UNDER_INSPECTION', 'DELIVERY_RETURNED_AWAITING_APPROVAL', 'DELIVERY_RETURN_REJECTED'] as const) {
      expect(decideSellerRefund(milestone({ status }), 'seller', 40_000, NOW)).toMatchObject({ ok: true, to: status, closesDispute: null });
      expect(decideSellerRefund(milestone({ status }), 'seller', 100_000, NOW)).toMatchObject({ ok: true, to: 'REFUNDED', breakdown: { toBuyer: 100_000, escrowAfter: 0 } });
    }
  });

  it('in a dispute: during mediation or evidence only; everything held cancels the dispute', () => {
    const disputed = (disputeStatus: DisputeStatus) => milestone({ status: 'IN_DISPUTE', disputeStatus });
    expect(decideSellerRefund(disputed('INTRA_PARTY_MEDIATION'), 'seller', 1, NOW)).toMatchObject({ ok: true, to: 'IN_DISPUTE', closesDispute: null });
    expect(decideSellerRefund(disputed('EVIDENCE_SUBMISSION'), 'seller', 100_000, NOW)).toMatchObject({ ok: true, to: 'REFUNDED', closesDispute: 'CANCELED' });
    for (const status of ['ARBITRATION', 'ARBITRATION_DECLINED'] as const) {
      expect(decideSellerRefund(disputed(status), 'seller', 1, NOW)).toMatchObject({ ok: false, code: 'INVALID_STATE' });
    }
  });

  it('refuses a milestone that holds nothing', () => {
    for (const status of ['PENDING_FUNDING', 'COMPLETED', 'DELIVERY_RETURN_APPROVED', 'DISPUTE_RESOLVED', 'CANCELED', 'REFUNDED'] as const) {
      expect(decideSellerRefund(milestone({ status }), 'seller', 1, NOW)).toMatchObject({ ok: false, code: 'INVALID_STATE' });
    }
    expect(decideSellerRefund(milestone({ terms: { ...terms(), escrowBalance: 0 } }), 'seller', 1, NOW)).toMatchObject({ ok: false, code: 'INVALID_STATE' });
  });

  it('withdraws a pending proposal and restarts inspection from the refund', () => {
    const decision = decideSellerRefund(proposed(milestone(), 60_000), 'seller', 10_000, NOW);
    expect(decision).toMatchObject({
      ok: true,
      partialAcceptance: { status: 'WITHDRAWN', answeredAt: NOW },
      clock: { partialAcceptanceResponseDueAt: null, inspectionEndDate: addCalendarDays(NOW, 3) },
    });
  });
});

describe('partial acceptance', () => {
  it('the buyer proposes during inspection; its answer deadline replaces inspection’s', () => {
    const decision = decideProposePartialAcceptance(milestone(), 'buyer', { releaseAmount: 60_000, reason: 'r' }, NOW, holidays);
    const dueAt = addBusinessDays(NOW, PARTIAL_ACCEPTANCE_RESPONSE_BUSINESS_DAYS, holidays);
    expect(dueAt).toEqual(new Date('2026-03-13T09:00:00.000Z'));
    expect(decision).toEqual({
      ok: true,
      partialAcceptance: { releaseAmount: 60_000, refundAmount: 40_000, reason: 'r', status: 'PENDING', proposedAt: NOW, answeredAt: null, declineReason: null },
      clock: { inspectionEndDate: null, partialAcceptanceResponseDueAt: dueAt },
    });
  });

  it('refuses the seller, another state, 0, everything held, and a second proposal', () => {
    const m = milestone();
    const propose = (x: PartialOutcomeMilestone, releaseAmount: number, by: 'buyer' | 'seller' = 'buyer') =>
      decideProposePartialAcceptance(x, by, { releaseAmount, reason: 'r' }, NOW, holidays);
    expect(propose(m, 60_000, 'seller')).toMatchObject({ ok: false, code: 'WRONG_PARTY' });
    expect(propose(milestone({ status: 'IN_PROGRESS' }), 60_000)).toMatchObject({ ok: false, code: 'INVALID_STATE' });
    expect(propose(m, 0)).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    expect(propose(m, 100_000)).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    expect(propose(m, 99_999)).toMatchObject({ ok: true });
    expect(propose(proposed(m, 60_000), 50_000)).toMatchObject({ ok: false, code: 'INVALID_STATE' });
  });

  it('accepted: COMPLETED, the release less its pro-rata fee to the seller, the rest to the buyer', () => {
    const m = proposed(milestone({ terms: terms(100_000, 'BUYER_100') }), 60_000);
    expect(m.partialAcceptance!.refundAmount).toBe(40_400);
    const decision = decidePartialAcceptanceAnswer(m, 'seller', 'accept', NOW);
    expect(decision).toMatchObject({
      ok: true,
      kind: 'accepted',
      to: 'COMPLETED',
      releaseAmount: 60_000,
      breakdown: { toSeller: 60_000, fee: 600, toBuyer: 40_400 },
      partialAcceptance: { status: 'ACCEPTED', answeredAt: NOW },
    });
  });

  it('declined: back to inspection, whose deadline restarts from the decline', () => {
    const later = new Date(NOW.getTime() + 86_400_000);
    const decision = decidePartialAcceptanceAnswer(proposed(milestone(), 60_000), 'seller', 'decline', later, 'all five rooms are painted');
    expect(decision).toEqual({
      ok: true,
      kind: 'declined',
      to: 'UNDER_INSPECTION',
      partialAcceptance: expect.objectContaining({ status: 'DECLINED', answeredAt: later, declineReason: 'all five rooms are painted' }),
      clock: { partialAcceptanceResponseDueAt: null, inspectionEndDate: addCalendarDays(later, 3) },
    });
  });

  it('only the seller answers, only a pending proposal, and the service only accepts', () => {
    const m = proposed(milestone(), 60_000);
    expect(decidePartialAcceptanceAnswer(m, 'buyer', 'accept', NOW)).toMatchObject({ ok: false, code: 'WRONG_PARTY' });
    expect(decidePartialAcceptanceAnswer(milestone(), 'seller', 'accept', NOW)).toMatchObject({ ok: false, code: 'INVALID_STATE' });
    expect(decidePartialAcceptanceAnswer(m, 'service', 'decline', NOW)).toMatchObject({ ok: false, code: 'INVALID_STATE' });
    expect(decidePartialAcceptanceAnswer(m, 'service', 'accept', NOW)).toMatchObject({ ok: true, kind: 'accepted' });
  });

  it('the buyer’s full approval or rejection withdraws it', () => {
    const m = proposed(milestone(), 60_000);
    expect(withdrawOnBuyerAnswer(m, NOW)).toEqual({ partialAcceptance: { ...m.partialAcceptance, status: 'WITHDRAWN', answeredAt: NOW }, clock: { partialAcceptanceResponseDueAt: null } });
    expect(withdrawOnBuyerAnswer(milestone(), NOW)).toEqual({ partialAcceptance: null, clock: {} });
    const after = { ...m, ...withdrawOnBuyerAnswer(m, NOW) };
    expect(decidePartialAcceptanceAnswer(after, 'seller', 'accept', NOW)).toMatchObject({ ok: false, code: 'INVALID_STATE' });
  });
});

describe('allowedPartialOutcomeActions', () => {
  it('names the right party in the right states', () => {
    expect(allowedPartialOutcomeActions(milestone())).toEqual({ buyer: ['propose_partial_acceptance'], seller: ['refund'] });
    expect(allowedPartialOutcomeActions(proposed(milestone(), 1))).toEqual({ buyer: [], seller: ['refund', 'accept_partial_acceptance', 'decline_partial_acceptance'] });
    expect(allowedPartialOutcomeActions(milestone({ status: 'IN_PROGRESS' }))).toEqual({ buyer: [], seller: ['refund'] });
    expect(allowedPartialOutcomeActions(milestone({ status: 'IN_DISPUTE', disputeStatus: 'ARBITRATION' }))).toEqual({ buyer: [], seller: [] });
    expect(allowedPartialOutcomeActions(milestone({ status: 'PENDING_FUNDING' }))).toEqual({ buyer: [], seller: [] });
    expect(allowedPartialOutcomeActions(milestone({ status: 'COMPLETED', terms: { ...terms(), escrowBalance: 0 } }))).toEqual({ buyer: [], seller: [] });
  });
});

describe('owedPartialOutcomeActions', () => {
  it('is allowedPartialOutcomeActions less the choices, whatever is held and whatever the dispute', () => {
    const states = [
      milestone(),
      proposed(milestone(), 1),
      milestone({ status: 'IN_PROGRESS' }),
      milestone({ status: 'IN_DISPUTE', disputeStatus: 'ARBITRATION' }),
      milestone({ status: 'IN_DISPUTE', disputeStatus: 'INTRA_PARTY_MEDIATION' }),
      milestone({ status: 'PENDING_FUNDING' }),
      milestone({ status: 'COMPLETED', terms: { ...terms(), escrowBalance: 0 } }),
      { ...proposed(milestone(), 1), terms: { ...terms(), escrowBalance: 0 } },
    ];
    for (const m of states) {
      const allowed = allowedPartialOutcomeActions(m);
      const owed = { buyer: allowed.buyer.filter((a) => !CHOICES.has(a)), seller: allowed.seller.filter((a) => !CHOICES.has(a)) };
      expect(owedPartialOutcomeActions(m)).toEqual(owed);
    }
  });
});

describe('the partial_acceptance_response deadline', () => {
  const due = new Date('2026-03-13T09:00:00.000Z');
  const pending: LapseMilestone = {
    id: 'm1',
    position: 1,
    status: 'UNDER_INSPECTION',
    inspectionEndDate: NOW,
    returnDeadlineDate: null,
    extensionResponseDueAt: null,
    disputeOpeningDueAt: null,
    partialAcceptanceResponseDueAt: due,
  };

  it('replaces inspection while a proposal is pending', () => {
    expect(milestoneDeadlines(pending)).toEqual([
      { name: 'partial_acceptance_response', due_at: due, counted_in: 'business_days', on_lapse: 'partial_acceptance_accepted' },
    ]);
    expect(milestoneDeadlines({ ...pending, partialAcceptanceResponseDueAt: null }).map((d) => d.name)).toEqual(['inspection']);
  });

  it('lapses into acceptance at its instant, and not a millisecond before', () => {
    const state = { milestones: [pending], disputes: [] };
    // The suspended inspection, due long before, does not lapse.
    expect(dueLapses(state, new Date(due.getTime() - 1), calendar)).toEqual([]);
    expect(dueLapses(state, due, calendar)).toEqual([{ kind: 'accept_partial_acceptance', deadline: 'partial_acceptance_response', dueAt: due, milestoneId: 'm1' }]);
  });

  it('lapses before a cancellation request due at the same instant, which then is judged on the completed milestone', () => {
    const state = { milestones: [pending], disputes: [], transaction: { cancellationRequestedBy: 'seller' as const, cancellationResponseDueAt: due } };
    expect(dueLapses(state, due, calendar).map((l) => l.kind)).toEqual(['accept_partial_acceptance', 'cancellation_lapsed']);
  });
});

/** One milestone's life, any sequence of steps: each step is taken only if the domain allows it. */
type Step =
  | { t: 'deliver' | 'approve' | 'reject' | 'approve_return' | 'disapprove_return' | 'open_dispute' | 'escalate' | 'accept' | 'decline' | 'lapse' | 'inspection_lapse' }
  | { t: 'refund' | 'propose' | 'settle_dispute'; share: number; raw: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ t: fc.constantFrom('deliver', 'approve', 'reject', 'approve_return', 'disapprove_return', 'open_dispute', 'escalate', 'accept', 'decline', 'lapse', 'inspection_lapse') }),
  fc.record({ t: fc.constantFrom('refund', 'propose', 'settle_dispute'), share: fc.double({ min: 0, max: 1.2, noNaN: true }), raw: fc.boolean() }),
) as fc.Arbitrary<Step>;

describe('any sequence of refunds, partial acceptances, approvals, rejections and lapses', () => {
  it('creates or loses no kobo: every transfer balances, no escrow or wallet goes negative, and a finished milestone holds nothing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_00 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.constantFrom(...COMMISSION_PAYERS),
        fc.array(step, { maxLength: 25 }),
        (amount, basisPoints, payer, steps) => {
          const agreed = terms(amount, payer, basisPoints);
          const funding = agreed.escrowBalance;
          const balances = new Map<string, number>([
            ['escrow', funding],
            ['buyer', 0],
            ['seller', 0],
            ['fees', 0],
          ]);
          const post = (t: Transfer) => {
            expect(t.postings.reduce((s, p) => s + p.amount, 0)).toBe(0);
            for (const p of t.postings) balances.set(p.accountId, balances.get(p.accountId)! + p.amount);
          };
          let m: PartialOutcomeMilestone = { ...milestone({ terms: agreed }), status: 'IN_PROGRESS' };
          const now = NOW;
          const current = () => ({ ...m.terms, escrowBalance: balances.get('escrow')! });
          const move = (action: MilestoneAction): boolean => {
            const decision = decideMilestoneAction(action, { id: 'm', status: m.status, position: 1 }, [{ id: 'm', status: m.status, position: 1 }]);
            if (decision.ok) m = { ...m, status: decision.to };
            return decision.ok;
          };
          for (const s of steps) {
            m = { ...m, terms: current() };
            const held = heldPrincipal(m.terms);
            const amountOf = (x: { share: number; raw: boolean }) => (x.raw ? Math.round(x.share * held) : Math.max(1, Math.min(held, Math.floor(x.share * held))));
            switch (s.t) {
              case 'deliver':
              case 'reject':
              case 'disapprove_return':
                if (s.t === 'reject' && m.status === 'UNDER_INSPECTION') m = { ...m, ...withdrawOnBuyerAnswer(m, now) };
                move(s.t);
                break;
              case 'approve':
              case 'inspection_lapse': {
                if (m.status !== 'UNDER_INSPECTION') break;
                // Inspection does not lapse while a proposal waits: its deadline is suspended.
                if (s.t === 'inspection_lapse' && m.partialAcceptance?.status === 'PENDING') break;
                m = { ...m, ...withdrawOnBuyerAnswer(m, now) };
                post(releaseOfHeld({ ...accounts, terms: m.terms }).transfer);
                move('approve');
                break;
              }
              case 'approve_return':
                if (m.status !== 'DELIVERY_RETURNED_AWAITING_APPROVAL') break;
                post(refund({ escrowId: 'escrow', buyerWalletId: 'buyer', escrowBalance: m.terms.escrowBalance }));
                move('approve_return');
                break;
              case 'open_dispute':
                if (move('open_dispute')) m = { ...m, disputeStatus: 'INTRA_PARTY_MEDIATION' };
                break;
              case 'escalate':
                if (m.disputeStatus === 'INTRA_PARTY_MEDIATION') m = { ...m, disputeStatus: 'EVIDENCE_SUBMISSION' };
                else if (m.disputeStatus === 'EVIDENCE_SUBMISSION') m = { ...m, disputeStatus: 'ARBITRATION' };
                break;
              case 'settle_dispute': {
                if (m.status !== 'IN_DISPUTE') break;
                const max = maxSellerPayment(m.terms, m.terms.milestoneAmount);
                post(settlement('dispute_settlement', { ...accounts, paidToSeller: Math.floor(Math.min(1, s.share) * max), terms: m.terms }).transfer);
                m = { ...m, status: 'DISPUTE_RESOLVED', disputeStatus: 'RESOLVED' };
                break;
              }
              case 'refund': {
                const decision = decideSellerRefund(m, 'seller', amountOf(s), now);
                if (!decision.ok) break;
                post(sellerRefund({ escrowId: 'escrow', buyerWalletId: 'buyer', principal: amountOf(s), terms: m.terms }).transfer);
                m = { ...m, status: decision.to, partialAcceptance: decision.partialAcceptance, disputeStatus: decision.closesDispute ?? m.disputeStatus };
                break;
              }
              case 'propose': {
                const decision = decideProposePartialAcceptance(m, 'buyer', { releaseAmount: amountOf(s), reason: 'r' }, now, holidays);
                if (decision.ok) m = { ...m, partialAcceptance: decision.partialAcceptance };
                break;
              }
              case 'accept':
              case 'lapse':
              case 'decline': {
                const decision = decidePartialAcceptanceAnswer(m, s.t === 'lapse' ? 'service' : 'seller', s.t === 'decline' ? 'decline' : 'accept', now);
                if (!decision.ok) break;
                if (decision.kind === 'accepted') {
                  const { transfer, breakdown } = partialAcceptanceSettlement({ ...accounts, releaseAmount: decision.releaseAmount, terms: m.terms });
                  expect(breakdown).toEqual(decision.breakdown);
                  expect(breakdown.toBuyer).toBe(decision.partialAcceptance.refundAmount);
                  post(transfer);
                }
                m = { ...m, status: decision.to, partialAcceptance: decision.partialAcceptance };
                break;
              }
            }
            for (const [account, balance] of balances) expect(balance, account).toBeGreaterThanOrEqual(0);
            expect([...balances.values()].reduce((a, b) => a + b, 0)).toBe(funding);
            expect(balances.get('seller')).toBeLessThanOrEqual(amount);
            expect(balances.get('fees')).toBeLessThanOrEqual(agreed.milestoneFee);
            if (isFinished(m.status)) expect(balances.get('escrow'), m.status).toBe(0);
            else expect(heldPrincipal(current())).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
