import { describe, expect, it } from 'vitest';
import { awaitingOf, firstTurn, turnsOf, type TurnsDispute, type TurnsTransaction } from './turns';

const none = { buyer: [], seller: [] };
const deal = (over: Partial<TurnsTransaction> = {}): TurnsTransaction => ({ allowed_actions: none, deadlines: [], milestones: [], ...over });
const milestone = (id: string, allowed: { buyer: string[]; seller: string[] }, deadlines: string[] = [], due_date = '2026-12-01T00:00:00.000Z') => ({
  id,
  due_date,
  allowed_actions: allowed,
  deadlines: deadlines.map((due_at) => ({ due_at })),
});
const dispute = (over: Partial<TurnsDispute>): TurnsDispute => ({
  id: 'd1',
  milestone_id: 'm1',
  status: 'INTRA_PARTY_MEDIATION',
  dispute_amount_status: 'PENDING',
  is_buyer_evidence_submitted: false,
  is_seller_evidence_submitted: false,
  allowed_actions: { buyer: ['escalate'], seller: ['add_dispute_amount', 'escalate', 'cancel'] },
  deadlines: [{ due_at: '2026-11-10T00:00:00.000Z' }],
  ...over,
});

describe('turnsOf', () => {
  it('leaves out choices: a buyer who may only cancel or ask nothing owes nothing', () => {
    const t = deal({ allowed_actions: { buyer: ['cancel'], seller: ['cancel'] }, milestones: [milestone('m1', { buyer: ['request_extension', 'refund'], seller: ['request_extension'] })] });
    expect(turnsOf(t, [], 'buyer')).toEqual([]);
    expect(turnsOf(t, [], 'seller')).toEqual([]);
  });

  it('a delivery runs against the milestone’s due date, an inspection against its deadline', () => {
    const t = deal({
      milestones: [
        milestone('m1', { buyer: ['approve', 'reject'], seller: [] }, ['2026-11-05T00:00:00.000Z']),
        milestone('m2', { buyer: ['fund'], seller: ['deliver'] }, [], '2026-12-20T00:00:00.000Z'),
      ],
    });
    expect(turnsOf(t, [], 'buyer').map((x) => [x.action, x.due_at, x.milestone_id])).toEqual([
      ['approve', '2026-11-05T00:00:00.000Z', 'm1'],
      ['reject', '2026-11-05T00:00:00.000Z', 'm1'],
      ['fund', null, 'm2'],
    ]);
    expect(turnsOf(t, [], 'seller')).toEqual([{ action: 'deliver', due_at: '2026-12-20T00:00:00.000Z', milestone_id: 'm2', dispute_id: null }]);
  });

  it('mediation is the seller’s turn until it proposes, then the buyer’s', () => {
    const pending = dispute({});
    expect(turnsOf(deal(), [pending], 'seller').map((x) => x.action)).toEqual(['add_dispute_amount']);
    expect(turnsOf(deal(), [pending], 'buyer')).toEqual([]);
    const proposed = dispute({ dispute_amount_status: 'SUBMITTED', allowed_actions: { buyer: ['approve_dispute_amount', 'reject_dispute_amount', 'escalate'], seller: ['add_dispute_amount'] } });
    expect(turnsOf(deal(), [proposed], 'buyer').map((x) => [x.action, x.dispute_id])).toEqual([
      ['approve_dispute_amount', 'd1'],
      ['reject_dispute_amount', 'd1'],
    ]);
    expect(turnsOf(deal(), [proposed], 'seller')).toEqual([]);
  });

  it('evidence is owed by each party until it has sent it', () => {
    const evidence = dispute({ status: 'EVIDENCE_SUBMISSION', is_seller_evidence_submitted: true, allowed_actions: { buyer: ['submit_evidence', 'extend_evidence'], seller: ['submit_evidence'] } });
    expect(turnsOf(deal(), [evidence], 'buyer').map((x) => x.action)).toEqual(['submit_evidence']);
    expect(turnsOf(deal(), [evidence], 'seller')).toEqual([]);
  });
});

describe('firstTurn and awaitingOf', () => {
  it('the soonest deadline first, undated steps last', () => {
    const turns = [
      { action: 'fund', due_at: null, milestone_id: 'm2', dispute_id: null },
      { action: 'approve', due_at: '2026-11-05T00:00:00.000Z', milestone_id: 'm1', dispute_id: null },
    ];
    expect(firstTurn(turns)?.action).toBe('approve');
    expect(firstTurn([])).toBeUndefined();
  });

  it('names the party whose deadline comes first, and none when nothing dated is owed', () => {
    const t = deal({ milestones: [milestone('m1', { buyer: ['fund'], seller: [] }), milestone('m2', { buyer: [], seller: ['deliver'] }, [], '2026-12-20T00:00:00.000Z')] });
    const { awaiting, next_deadline } = awaitingOf(t, []);
    expect(awaiting.buyer.map((x) => x.action)).toEqual(['fund']);
    expect(next_deadline).toEqual({ due_at: '2026-12-20T00:00:00.000Z', owed_by: 'seller', action: 'deliver', milestone_id: 'm2', dispute_id: null });
    expect(awaitingOf(deal(), []).next_deadline).toBeNull();
  });
});
