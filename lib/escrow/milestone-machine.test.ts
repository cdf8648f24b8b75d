import { describe, expect, it } from 'vitest';
import {
  allowedMilestoneActions,
  decideMilestoneAction,
  MILESTONE_ACTIONS,
  MILESTONE_STATUSES,
  transactionProgress,
  type MilestoneAction,
  type MilestoneState,
  type MilestoneStatus,
} from './milestone-machine';

const ALLOWED: Record<MilestoneAction, [MilestoneStatus, MilestoneStatus]> = {
  fund: ['PENDING_FUNDING', 'IN_PROGRESS'],
  deliver: ['IN_PROGRESS', 'UNDER_INSPECTION'],
  approve: ['UNDER_INSPECTION', 'COMPLETED'],
  reject: ['UNDER_INSPECTION', 'DELIVERY_RETURNED_AWAITING_APPROVAL'],
  approve_return: ['DELIVERY_RETURNED_AWAITING_APPROVAL', 'DELIVERY_RETURN_APPROVED'],
  disapprove_return: ['DELIVERY_RETURNED_AWAITING_APPROVAL', 'DELIVERY_RETURN_REJECTED'],
  open_dispute: ['DELIVERY_RETURN_REJECTED', 'IN_DISPUTE'],
};

describe('decideMilestoneAction on a lone milestone', () => {
  for (const action of MILESTONE_ACTIONS) {
    for (const status of MILESTONE_STATUSES) {
      const [from, to] = ALLOWED[action];
      it(`${action} from ${status} is ${status === from ? `allowed (→ ${to})` : 'refused'}`, () => {
        const m: MilestoneState = { id: 'm1', status, position: 1 };
        const decision = decideMilestoneAction(action, m, [m]);
        if (status === from) {
          expect(decision).toEqual({ ok: true, to });
        } else {
          expect(decision.ok).toBe(false);
          if (!decision.ok) expect(decision.message).toContain(status);
        }
      });
    }
  }
});

describe('milestone order', () => {
  it('funds a later milestone ahead, but never before an earlier unfunded one', () => {
    const m1: MilestoneState = { id: 'm1', status: 'IN_PROGRESS', position: 1 };
    const m2: MilestoneState = { id: 'm2', status: 'PENDING_FUNDING', position: 2 };
    const m3: MilestoneState = { id: 'm3', status: 'PENDING_FUNDING', position: 3 };
    expect(decideMilestoneAction('fund', m2, [m1, m2, m3]).ok).toBe(true);
    const refused = decideMilestoneAction('fund', m3, [m1, m2, m3]);
    expect(refused).toEqual({ ok: false, message: 'Milestone 2 must be funded before milestone 3.' });
  });

  it('disputes only the current milestone, whichever party opens it', () => {
    const m1: MilestoneState = { id: 'm1', status: 'DELIVERY_RETURN_REJECTED', position: 1 };
    const m2: MilestoneState = { id: 'm2', status: 'DELIVERY_RETURN_REJECTED', position: 2 };
    expect(decideMilestoneAction('open_dispute', m2, [m1, m2])).toEqual({ ok: false, message: 'Only the current milestone (position 1) can be disputed; this is milestone 2.' });
    expect(allowedMilestoneActions(m2, [m1, m2])).toEqual({ buyer: [], seller: [] });
    expect(allowedMilestoneActions(m1, [m1, m2])).toEqual({ buyer: ['open_dispute'], seller: ['open_dispute'] });
  });

  it('delivers only the current milestone', () => {
    const m1: MilestoneState = { id: 'm1', status: 'UNDER_INSPECTION', position: 1 };
    const m2: MilestoneState = { id: 'm2', status: 'IN_PROGRESS', position: 2 };
    expect(decideMilestoneAction('deliver', m2, [m1, m2]).ok).toBe(false);
    const done = { ...m1, status: 'COMPLETED' as const };
    expect(decideMilestoneAction('deliver', m2, [done, m2]).ok).toBe(true);
  });
});

describe('allowedMilestoneActions', () => {
  it('names the acting party for each action', () => {
    const m: MilestoneState = { id: 'm', status: 'UNDER_INSPECTION', position: 1 };
    expect(allowedMilestoneActions(m, [m])).toEqual({ buyer: ['approve', 'reject'], seller: [] });
    const r: MilestoneState = { id: 'm', status: 'DELIVERY_RETURN_REJECTED', position: 1 };
    // Either party opens the dispute over a rejected return: the buyer's money is held (issue #25).
    expect(allowedMilestoneActions(r, [r])).toEqual({ buyer: ['open_dispute'], seller: ['open_dispute'] });
    const disputed: MilestoneState = { id: 'm', status: 'IN_DISPUTE', position: 1 };
    expect(allowedMilestoneActions(disputed, [disputed])).toEqual({ buyer: [], seller: [] });
  });
});

describe('transactionProgress', () => {
  it('follows the current milestone and completes when every milestone is finished', () => {
    const ms: MilestoneState[] = [
      { id: 'a', status: 'COMPLETED', position: 1 },
      { id: 'b', status: 'DELIVERY_RETURNED_AWAITING_APPROVAL', position: 2 },
    ];
    expect(transactionProgress(ms)).toMatchObject({ status: 'MILESTONE_RETURN_AWAITING_APPROVAL', isCompleted: false, onLastMilestone: true });
    const done = ms.map((m) => ({ ...m, status: 'DISPUTE_RESOLVED' as const }));
    expect(transactionProgress(done)).toMatchObject({ status: 'COMPLETED', isCompleted: true, current: done[1] });
  });
});
