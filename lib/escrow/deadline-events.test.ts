import { describe, expect, it } from 'vitest';
import { approachingDeadline, checkoutExpiryDeadline, deadlineDedupeKey, lapsedDeadline, owedBy } from './deadline-events';
import { DEADLINES } from './deadlines';

const due = new Date('2026-12-07T09:00:00.000Z');

describe('deadline events', () => {
  it('names who owes each deadline: a cancellation answer is owed by the party that did not ask, the dispute team’s by no party', () => {
    expect(owedBy('inspection')).toBe('buyer');
    expect(owedBy('return_response')).toBe('seller');
    expect(owedBy('intra_party_mediation')).toBe('both');
    expect(owedBy('declined_refund')).toBeNull();
    expect(owedBy('cancellation_response', 'seller')).toBe('buyer');
    expect(owedBy('cancellation_response', 'buyer')).toBe('seller');
  });

  it('says of every deadline in DEADLINES what record it is on and what its lapse does', () => {
    for (const rule of DEADLINES) {
      const data = approachingDeadline({ name: rule.name, recordId: 'r', transactionId: 't', dueAt: due, requestedBy: 'buyer' });
      expect(data).toMatchObject({ record: rule.record, id: 'r', transaction_id: 't', name: rule.name, due_at: due.toISOString(), on_lapse: rule.on_lapse });
    }
  });

  it("a lapse names its dispute, or its milestone, or (a cancellation's) the transaction and which way it went", () => {
    expect(lapsedDeadline({ kind: 'escalate', deadline: 'intra_party_mediation', dueAt: due, milestoneId: 'm', disputeId: 'd', to: 'EVIDENCE_SUBMISSION', evidenceEndsAt: due }, 't')).toMatchObject({
      record: 'dispute',
      id: 'd',
    });
    expect(lapsedDeadline({ kind: 'open_dispute', deadline: 'dispute_opening', action: 'open_dispute', dueAt: due, milestoneId: 'm', disputeId: 'd', mediationEndsAt: due }, 't')).toMatchObject({
      record: 'milestone',
      id: 'm',
      owed_by: 'both',
    });
    expect(lapsedDeadline({ kind: 'cancellation_lapsed', deadline: 'cancellation_response', dueAt: due, requestedBy: 'buyer', outcome: 'decline' }, 't')).toEqual({
      record: 'transaction',
      id: 't',
      transaction_id: 't',
      name: 'cancellation_response',
      due_at: due.toISOString(),
      on_lapse: 'cancellation_declined',
      owed_by: 'seller',
    });
  });

  it("a checkout's expiry is the buyer's on a milestone, nobody's party deadline on a wallet top-up", () => {
    expect(checkoutExpiryDeadline({ id: 'k', transactionId: 't', expiresAt: due })).toMatchObject({ record: 'checkout', name: 'checkout_expiry', owed_by: 'buyer', transaction_id: 't' });
    expect(checkoutExpiryDeadline({ id: 'k', transactionId: null, expiresAt: due })).toMatchObject({ owed_by: null, transaction_id: null });
  });

  it('keys each event by type, deadline, record and instant: a moved deadline is a new key', () => {
    const d = { name: 'inspection' as const, id: 'm', due_at: due.toISOString() };
    expect(deadlineDedupeKey('deadline.approaching', d)).toBe(`deadline.approaching:inspection:m:${due.getTime()}`);
    expect(deadlineDedupeKey('deadline.lapsed', d)).not.toBe(deadlineDedupeKey('deadline.approaching', d));
    expect(deadlineDedupeKey('deadline.approaching', { ...d, due_at: new Date(due.getTime() + 1).toISOString() })).not.toBe(deadlineDedupeKey('deadline.approaching', d));
  });
});
