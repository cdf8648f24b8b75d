import { describe, expect, it } from 'vitest';
import { allowedDisputeActions, decideDisputeAction } from './dispute-machine';

describe('decideDisputeAction', () => {
  it('lets the seller propose and revise until the buyer approves', () => {
    expect(decideDisputeAction('add_dispute_amount', { status: 'INTRA_PARTY_MEDIATION', amountStatus: 'PENDING' })).toEqual({
      ok: true, status: 'INTRA_PARTY_MEDIATION', amountStatus: 'SUBMITTED',
    });
    expect(decideDisputeAction('add_dispute_amount', { status: 'INTRA_PARTY_MEDIATION', amountStatus: 'SUBMITTED' }).ok).toBe(true);
    expect(decideDisputeAction('add_dispute_amount', { status: 'RESOLVED', amountStatus: 'APPROVED' }).ok).toBe(false);
  });

  it('lets the buyer answer only a submitted amount', () => {
    const submitted = { status: 'INTRA_PARTY_MEDIATION', amountStatus: 'SUBMITTED' } as const;
    expect(decideDisputeAction('approve_dispute_amount', submitted)).toEqual({ ok: true, status: 'RESOLVED', amountStatus: 'APPROVED' });
    expect(decideDisputeAction('reject_dispute_amount', submitted)).toEqual({ ok: true, status: 'INTRA_PARTY_MEDIATION', amountStatus: 'PENDING' });
    const pending = { status: 'INTRA_PARTY_MEDIATION', amountStatus: 'PENDING' } as const;
    expect(decideDisputeAction('approve_dispute_amount', pending).ok).toBe(false);
    expect(decideDisputeAction('reject_dispute_amount', pending).ok).toBe(false);
  });

  it('refuses every mediation action outside mediation', () => {
    for (const status of ['EVIDENCE_SUBMISSION', 'ARBITRATION', 'ARBITRATION_DECLINED', 'RESOLVED', 'CANCELED'] as const) {
      expect(allowedDisputeActions({ status, amountStatus: 'SUBMITTED' })).toEqual({ buyer: [], seller: [] });
    }
  });
});
