import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addBusinessDays } from './business-days';
import {
  DECLINED_REFUND_BUSINESS_DAYS,
  disputeDeadlines,
  DISPUTE_OPENING_BUSINESS_DAYS,
  EVIDENCE_BUSINESS_DAYS,
  isDue,
  MEDIATION_BUSINESS_DAYS,
  milestoneDeadlines,
  transactionDeadlines,
  type Deadline,
} from './deadlines';
import { DISPUTE_STATUSES } from './dispute-machine';
import { afterLapse, dueLapses, lapsedNow, type Lapse, type LapseDispute, type LapseMilestone, type TransactionClocks } from './lapses';
import { isFinished, MILESTONE_STATUSES } from './milestone-machine';
import { holidaySet, NIGERIAN_PUBLIC_HOLIDAYS } from './nigerian-holidays';

const calendar = { holidays: holidaySet(NIGERIAN_PUBLIC_HOLIDAYS), disputeIdFor: (milestoneId: string) => `opened-${milestoneId}` };
const AT = new Date('2026-03-10T09:00:00.000Z'); // a Tuesday, no holiday near
const justBefore = (d: Date) => new Date(d.getTime() - 1);

function milestone(over: Partial<LapseMilestone> = {}): LapseMilestone {
  return { id: 'm1', position: 1, status: 'IN_PROGRESS', inspectionEndDate: null, returnDeadlineDate: null, extensionResponseDueAt: null, disputeOpeningDueAt: null, partialAcceptanceResponseDueAt: null, ...over };
}

function dispute(over: Partial<LapseDispute> = {}): LapseDispute {
  return {
    id: 'd1',
    milestoneId: 'm1',
    status: 'INTRA_PARTY_MEDIATION',
    intraPartyMediationEndDate: AT,
    evidenceSubmissionEndDate: null,
    declinedRefundDueAt: null,
    isBuyerEvidenceSubmitted: false,
    isSellerEvidenceSubmitted: false,
    ...over,
  };
}

const inDispute = milestone({ status: 'IN_DISPUTE' });
const state = (milestones: LapseMilestone[], disputes: LapseDispute[] = []): TransactionClocks => ({ milestones, disputes });

describe('each lapse, at its instant and not a millisecond before', () => {
  it('inspection: the delivery is accepted', () => {
    const s = state([milestone({ status: 'UNDER_INSPECTION', inspectionEndDate: AT })]);
    expect(dueLapses(s, justBefore(AT), calendar)).toEqual([]);
    expect(dueLapses(s, AT, calendar)).toEqual([{ kind: 'accept_delivery', deadline: 'inspection', action: 'approve', dueAt: AT, milestoneId: 'm1' }]);
    expect(afterLapse(s, dueLapses(s, AT, calendar)[0]!).milestones[0]!.status).toBe('COMPLETED');
  });

  it('return: an unanswered return is approved', () => {
    const s = state([milestone({ status: 'DELIVERY_RETURNED_AWAITING_APPROVAL', returnDeadlineDate: AT })]);
    expect(dueLapses(s, justBefore(AT), calendar)).toEqual([]);
    expect(dueLapses(s, AT, calendar)).toEqual([
      { kind: 'approve_return', deadline: 'return_response', action: 'approve_return', dueAt: AT, milestoneId: 'm1' },
    ]);
    expect(afterLapse(s, dueLapses(s, AT, calendar)[0]!).milestones[0]!.status).toBe('DELIVERY_RETURN_APPROVED');
  });

  it('extension request: one the buyer left unanswered is declined, in whatever status the milestone now is', () => {
    for (const status of ['PENDING_FUNDING', 'IN_PROGRESS', 'UNDER_INSPECTION'] as const) {
      const s = state([milestone({ status, extensionResponseDueAt: AT })]);
      expect(dueLapses(s, justBefore(AT), calendar)).toEqual([]);
      expect(dueLapses(s, AT, calendar)).toEqual([{ kind: 'decline_extension', deadline: 'extension_response', dueAt: AT, milestoneId: 'm1' }]);
      expect(afterLapse(s, dueLapses(s, AT, calendar)[0]!).milestones[0]).toMatchObject({ status, extensionResponseDueAt: null });
    }
  });

  it('mediation: escalates to evidence submission, 3 business days counted from when mediation ended', () => {
    const s = state([inDispute], [dispute({ intraPartyMediationEndDate: AT })]);
    expect(dueLapses(s, justBefore(AT), calendar)).toEqual([]);
    const evidenceEndsAt = new Date('2026-03-13T09:00:00.000Z');
    expect(addBusinessDays(AT, EVIDENCE_BUSINESS_DAYS, calendar.holidays)).toEqual(evidenceEndsAt);
    // Noticed a day late, the window still ends 3 business days after mediation did.
    const lapses = dueLapses(s, new Date(AT.getTime() + 86_400_000), calendar);
    expect(lapses).toEqual([
      { kind: 'escalate', deadline: 'intra_party_mediation', to: 'EVIDENCE_SUBMISSION', dueAt: AT, milestoneId: 'm1', disputeId: 'd1', evidenceEndsAt },
    ]);
    const after = afterLapse(s, lapses[0]!).disputes[0]!;
    expect(after).toMatchObject({ status: 'EVIDENCE_SUBMISSION', evidenceSubmissionEndDate: evidenceEndsAt });
  });

  it('mediation ending on a Friday: the evidence window skips the weekend', () => {
    const friday = new Date('2026-03-13T15:00:00.000Z');
    const [lapse] = dueLapses(state([inDispute], [dispute({ intraPartyMediationEndDate: friday })]), friday, calendar);
    expect(lapse).toMatchObject({ kind: 'escalate', evidenceEndsAt: new Date('2026-03-18T15:00:00.000Z') });
  });

  const evidence = (buyer: boolean, seller: boolean) =>
    state([inDispute], [dispute({ status: 'EVIDENCE_SUBMISSION', evidenceSubmissionEndDate: AT, isBuyerEvidenceSubmitted: buyer, isSellerEvidenceSubmitted: seller })]);
  const base = { deadline: 'evidence_submission', dueAt: AT, milestoneId: 'm1', disputeId: 'd1' } as const;

  it('evidence window, only the buyer spoke: the seller forfeits and the milestone is settled', () => {
    expect(dueLapses(evidence(true, false), justBefore(AT), calendar)).toEqual([]);
    const lapses = dueLapses(evidence(true, false), AT, calendar);
    expect(lapses).toEqual([{ ...base, kind: 'forfeit', loser: 'seller', to: 'RESOLVED' }]);
    const after = afterLapse(evidence(true, false), lapses[0]!);
    expect(after.disputes[0]!.status).toBe('RESOLVED');
    expect(after.milestones[0]!.status).toBe('DISPUTE_RESOLVED');
  });

  it('evidence window, only the seller spoke: the buyer forfeits', () => {
    expect(dueLapses(evidence(false, true), justBefore(AT), calendar)).toEqual([]);
    expect(dueLapses(evidence(false, true), AT, calendar)).toEqual([{ ...base, kind: 'forfeit', loser: 'buyer', to: 'RESOLVED' }]);
  });

  it('evidence window, both spoke: arbitration, the milestone stays in dispute', () => {
    expect(dueLapses(evidence(true, true), justBefore(AT), calendar)).toEqual([]);
    const lapses = dueLapses(evidence(true, true), AT, calendar);
    expect(lapses).toEqual([{ ...base, kind: 'arbitration', to: 'ARBITRATION' }]);
    expect(afterLapse(evidence(true, true), lapses[0]!).milestones[0]!.status).toBe('IN_DISPUTE');
  });

  it('evidence window, nobody spoke: arbitration declined, the funds held until 10 business days after the window closed', () => {
    expect(dueLapses(evidence(false, false), justBefore(AT), calendar)).toEqual([]);
    const lapses = dueLapses(evidence(false, false), AT, calendar);
    // Two weeks of business days, and the two Eid-el-Fitr holidays (20 and 23 March) skipped.
    const refundDueAt = new Date('2026-03-26T09:00:00.000Z');
    expect(addBusinessDays(AT, DECLINED_REFUND_BUSINESS_DAYS, calendar.holidays)).toEqual(refundDueAt);
    expect(lapses).toEqual([{ ...base, kind: 'declined', to: 'ARBITRATION_DECLINED', refundDueAt }]);
    const after = afterLapse(evidence(false, false), lapses[0]!);
    expect(after.milestones[0]!.status).toBe('IN_DISPUTE');
    expect(after.disputes[0]).toMatchObject({ status: 'ARBITRATION_DECLINED', declinedRefundDueAt: refundDueAt });
    expect(disputeDeadlines(after.disputes[0]!)).toEqual([{ name: 'declined_refund', due_at: refundDueAt, counted_in: 'business_days', on_lapse: 'refunded_to_buyer' }]);
  });

  it('declined arbitration left undecided: everything back to the buyer, the milestone settled', () => {
    const declined = state([inDispute], [dispute({ status: 'ARBITRATION_DECLINED', evidenceSubmissionEndDate: justBefore(AT), declinedRefundDueAt: AT })]);
    expect(dueLapses(declined, justBefore(AT), calendar)).toEqual([]);
    const lapses = dueLapses(declined, AT, calendar);
    expect(lapses).toEqual([{ kind: 'declined_refund', deadline: 'declined_refund', to: 'RESOLVED', dueAt: AT, milestoneId: 'm1', disputeId: 'd1' }]);
    const after = afterLapse(declined, lapses[0]!);
    expect(after.disputes[0]).toMatchObject({ status: 'RESOLVED', declinedRefundDueAt: null });
    expect(after.milestones[0]!.status).toBe('DISPUTE_RESOLVED');
    // A verdict first (RESOLVED) stops the clock: the column left behind lapses nothing.
    expect(dueLapses(state([inDispute], [dispute({ status: 'RESOLVED', declinedRefundDueAt: AT })]), AT, calendar)).toEqual([]);
  });

  it('a rejected return nobody disputes: the service opens the dispute, its mediation counted from the deadline', () => {
    const rejected = state([milestone({ status: 'DELIVERY_RETURN_REJECTED', disputeOpeningDueAt: AT })]);
    expect(milestoneDeadlines(rejected.milestones[0]!)).toEqual([{ name: 'dispute_opening', due_at: AT, counted_in: 'business_days', on_lapse: 'dispute_opened' }]);
    expect(dueLapses(rejected, justBefore(AT), calendar)).toEqual([]);
    const mediationEndsAt = addBusinessDays(AT, MEDIATION_BUSINESS_DAYS, calendar.holidays);
    const lapses = dueLapses(rejected, new Date(AT.getTime() + 3_600_000), calendar);
    expect(lapses).toEqual([
      { kind: 'open_dispute', deadline: 'dispute_opening', action: 'open_dispute', dueAt: AT, milestoneId: 'm1', disputeId: 'opened-m1', mediationEndsAt },
    ]);
    const after = afterLapse(rejected, lapses[0]!);
    expect(after.milestones[0]).toMatchObject({ status: 'IN_DISPUTE', disputeOpeningDueAt: null });
    expect(after.disputes).toEqual([dispute({ id: 'opened-m1', intraPartyMediationEndDate: mediationEndsAt })]);
    // A dispute opened by a party first (IN_DISPUTE) stops the clock.
    expect(dueLapses(state([milestone({ status: 'IN_DISPUTE', disputeOpeningDueAt: AT })]), AT, calendar)).toEqual([]);
  });
});

describe('what a lapse leads to', () => {
  it('a clock moved weeks past a rejected return: the opened dispute runs its whole course to the buyer\'s refund', () => {
    const rejectedAt = new Date(AT.getTime() - 1);
    const dueAt = addBusinessDays(rejectedAt, DISPUTE_OPENING_BUSINESS_DAYS, calendar.holidays);
    const s = state([milestone({ status: 'DELIVERY_RETURN_REJECTED', disputeOpeningDueAt: dueAt })]);
    const lapses = dueLapses(s, new Date(AT.getTime() + 40 * 86_400_000), calendar);
    expect(lapses.map((l) => l.kind)).toEqual(['open_dispute', 'escalate', 'declined', 'declined_refund']);
    expect(lapses.slice(1).every((l) => 'disputeId' in l && l.disputeId === 'opened-m1')).toBe(true);
    const end = lapses.reduce(afterLapse, s);
    expect(end.milestones[0]!.status).toBe('DISPUTE_RESOLVED');
    expect(end.disputes[0]!.status).toBe('RESOLVED');
  });

  it('a clock moved past both windows escalates, then closes the evidence window it opened', () => {
    const s = state([inDispute], [dispute()]);
    const evidenceEndsAt = addBusinessDays(AT, EVIDENCE_BUSINESS_DAYS, calendar.holidays);
    expect(dueLapses(s, justBefore(evidenceEndsAt), calendar).map((l) => l.kind)).toEqual(['escalate']);
    const lapses = dueLapses(s, evidenceEndsAt, calendar);
    expect(lapses.map((l) => l.kind)).toEqual(['escalate', 'declined']);
    expect(lapses[1]!.dueAt).toEqual(evidenceEndsAt);
  });

  it('applies lapses earliest first', () => {
    const later = new Date(AT.getTime() + 1000);
    const s = state(
      [milestone({ id: 'm1', status: 'UNDER_INSPECTION', inspectionEndDate: later }), milestone({ id: 'm2', position: 2, status: 'IN_DISPUTE' })],
      [dispute({ milestoneId: 'm2', status: 'EVIDENCE_SUBMISSION', evidenceSubmissionEndDate: AT, isSellerEvidenceSubmitted: true })],
    );
    expect(dueLapses(s, later, calendar).map((l) => l.kind)).toEqual(['forfeit', 'accept_delivery']);
  });

  it('ignores deadlines that no longer run: past dates of a finished or waiting record lapse nothing', () => {
    const past = new Date(0);
    const s = state(
      [
        milestone({ id: 'm1', status: 'COMPLETED', inspectionEndDate: past }),
        milestone({ id: 'm2', position: 2, status: 'DELIVERY_RETURN_REJECTED', returnDeadlineDate: past }),
        milestone({ id: 'm3', position: 3, status: 'IN_DISPUTE' }),
      ],
      [dispute({ milestoneId: 'm3', status: 'ARBITRATION', intraPartyMediationEndDate: past, evidenceSubmissionEndDate: past })],
    );
    expect(dueLapses(s, AT, calendar)).toEqual([]);
  });
});

describe('an unanswered cancellation request (decisions §13)', () => {
  const asked = (by: 'buyer' | 'seller', milestones = [milestone()]): TransactionClocks => ({
    milestones,
    disputes: [],
    transaction: { cancellationRequestedBy: by, cancellationResponseDueAt: AT },
  });

  it('lapses the silent party’s way: a seller’s request is approved, a buyer’s declined', () => {
    expect(dueLapses(asked('seller'), justBefore(AT), calendar)).toEqual([]);
    const approve = dueLapses(asked('seller'), AT, calendar);
    expect(approve).toEqual([{ kind: 'cancellation_lapsed', deadline: 'cancellation_response', dueAt: AT, requestedBy: 'seller', outcome: 'approve' }]);
    const after = afterLapse(asked('seller'), approve[0]!);
    expect(after.milestones.map((m) => m.status)).toEqual(['CANCELED']);
    expect(after.transaction).toEqual({ cancellationRequestedBy: null, cancellationResponseDueAt: null });

    const decline = dueLapses(asked('buyer'), AT, calendar);
    expect(decline).toEqual([{ kind: 'cancellation_lapsed', deadline: 'cancellation_response', dueAt: AT, requestedBy: 'buyer', outcome: 'decline' }]);
    expect(afterLapse(asked('buyer'), decline[0]!).milestones.map((m) => m.status)).toEqual(['IN_PROGRESS']);
  });

  it('is declined when a milestone was delivered meanwhile, even the seller’s', () => {
    const delivered = asked('seller', [milestone({ status: 'UNDER_INSPECTION', inspectionEndDate: new Date(AT.getTime() + 86_400_000) })]);
    expect(dueLapses(delivered, AT, calendar)).toEqual([expect.objectContaining({ kind: 'cancellation_lapsed', outcome: 'decline' })]);
    expect(transactionDeadlines(delivered.transaction!, delivered.milestones)).toEqual([
      { name: 'cancellation_response', due_at: AT, counted_in: 'business_days', on_lapse: 'cancellation_declined' },
    ]);
  });
});

// Arbitrary transactions: any statuses, deadlines around AT (some unset), each dispute on its own milestone.
const instant = fc.integer({ min: -10 * 86_400_000, max: 10 * 86_400_000 }).map((ms) => new Date(AT.getTime() + ms));
const arbitraryRequest = fc.option(fc.record({ cancellationRequestedBy: fc.constantFrom('buyer' as const, 'seller' as const), cancellationResponseDueAt: instant }), { nil: undefined });
const arbitraryClocks: fc.Arbitrary<TransactionClocks> = fc
  .tuple(fc.array(
    fc.record({
      status: fc.constantFrom(...MILESTONE_STATUSES),
      inspectionEndDate: fc.option(instant, { nil: null }),
      returnDeadlineDate: fc.option(instant, { nil: null }),
      extensionResponseDueAt: fc.option(instant, { nil: null }),
      disputeOpeningDueAt: fc.option(instant, { nil: null }),
      partialAcceptanceResponseDueAt: fc.option(instant, { nil: null }),
      dispute: fc.option(
        fc.record({
          status: fc.constantFrom(...DISPUTE_STATUSES),
          intraPartyMediationEndDate: instant,
          evidenceSubmissionEndDate: fc.option(instant, { nil: null }),
          declinedRefundDueAt: fc.option(instant, { nil: null }),
          isBuyerEvidenceSubmitted: fc.boolean(),
          isSellerEvidenceSubmitted: fc.boolean(),
        }),
        { nil: null },
      ),
    }),
    { maxLength: 5 },
  ), arbitraryRequest)
  .map(([rows, request]) => ({
    // Only the current milestone can have had its return rejected (docs/decisions.md §5: worked in order).
    milestones: rows.map(({ dispute: _d, ...m }, i) => ({
      ...m,
      id: `m${i + 1}`,
      position: i + 1,
      disputeOpeningDueAt: rows.slice(0, i).every((earlier) => isFinished(earlier.status)) ? m.disputeOpeningDueAt : null,
    })),
    disputes: rows.flatMap(({ dispute: d }, i) => (d ? [{ ...d, id: `d${i + 1}`, milestoneId: `m${i + 1}` }] : [])),
    ...(request ? { transaction: request } : {}),
  }));

/** The API's `deadlines` of every milestone and dispute and of the transaction, keyed by record. */
function shownDeadlines(s: TransactionClocks): Array<{ record: string; deadline: Deadline }> {
  return [
    ...s.milestones.flatMap((m) => milestoneDeadlines(m).map((deadline) => ({ record: m.id, deadline }))),
    ...s.disputes.flatMap((d) => disputeDeadlines(d).map((deadline) => ({ record: d.id, deadline }))),
    ...(s.transaction ? transactionDeadlines(s.transaction, s.milestones).map((deadline) => ({ record: 'transaction', deadline })) : []),
  ];
}

// A dispute_opening lapse names the dispute it opens, but its deadline is the milestone's.
const recordOf = (l: Lapse) => (l.kind === 'cancellation_lapsed' ? 'transaction' : 'disputeId' in l && l.kind !== 'open_dispute' ? l.disputeId : l.milestoneId);
const ON_LAPSE: Record<Exclude<Lapse['kind'], 'cancellation_lapsed'>, string> = {
  accept_delivery: 'delivery_accepted',
  accept_partial_acceptance: 'partial_acceptance_accepted',
  approve_return: 'return_approved',
  decline_extension: 'extension_declined',
  escalate: 'escalated_to_evidence_submission',
  forfeit: 'forfeit_or_arbitration',
  arbitration: 'forfeit_or_arbitration',
  declined: 'forfeit_or_arbitration',
  open_dispute: 'dispute_opened',
  declined_refund: 'refunded_to_buyer',
};
const onLapseOf = (l: Lapse) => (l.kind === 'cancellation_lapsed' ? (l.outcome === 'approve' ? 'cancellation_approved' : 'cancellation_declined') : ON_LAPSE[l.kind]);

describe('properties', () => {
  it('applying the engine until nothing is due terminates, each step due when taken, and leaves no due deadline behind', () => {
    fc.assert(
      fc.property(arbitraryClocks, instant, (s, now) => {
        const plan = dueLapses(s, now, calendar);
        // Each record's deadline acts at most once per status it passes through: a milestone's once and its
        // extension request once, a dispute's (one the service opens included) at most three times, the transaction's once.
        expect(plan.length).toBeLessThanOrEqual(2 * s.milestones.length + 3 * (s.disputes.length + s.milestones.length) + 1);
        let current = s;
        for (const lapse of plan) {
          expect(lapsedNow(current, now, calendar)[0]).toEqual(lapse);
          expect(lapse.dueAt.getTime()).toBeLessThanOrEqual(now.getTime());
          current = afterLapse(current, lapse);
        }
        expect(lapsedNow(current, now, calendar)).toEqual([]);
        expect(shownDeadlines(current).filter(({ deadline }) => isDue(deadline, now))).toEqual([]);
      }),
    );
  });

  it('the deadlines the API shows agree with the engine: shown and passed is exactly what has lapsed', () => {
    fc.assert(
      fc.property(arbitraryClocks, instant, (s, now) => {
        const shown = shownDeadlines(s)
          .filter(({ deadline }) => isDue(deadline, now))
          .map(({ record, deadline }) => ({ record, name: deadline.name, at: deadline.due_at.getTime(), on_lapse: deadline.on_lapse }));
        const lapsed = lapsedNow(s, now, calendar).map((l) => ({ record: recordOf(l), name: l.deadline, at: l.dueAt.getTime(), on_lapse: onLapseOf(l) }));
        const key = (x: { record: string; name: string }) => `${x.record}/${x.name}`;
        expect([...lapsed].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([...shown].sort((a, b) => key(a).localeCompare(key(b))));
      }),
    );
  });

  it('once lapsed, a deadline stays lapsed as time goes on', () => {
    fc.assert(
      fc.property(arbitraryClocks, instant, fc.nat(5 * 86_400_000), (s, now, later) => {
        const at = (t: Date) => lapsedNow(s, t, calendar).map((l) => `${recordOf(l)}/${l.deadline}`);
        const then = at(new Date(now.getTime() + later));
        for (const k of at(now)) expect(then).toContain(k);
      }),
    );
  });
});
