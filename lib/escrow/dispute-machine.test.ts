import { describe, expect, it } from 'vitest';
import { allowedDisputeActions, decideDisputeAction, DISPUTE_STATUSES, lapseOutcome } from './dispute-machine';

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

  it('escalates from mediation only, takes evidence only during evidence submission, cancels any open dispute', () => {
    const mediation = { status: 'INTRA_PARTY_MEDIATION', amountStatus: 'SUBMITTED' } as const;
    expect(decideDisputeAction('escalate', mediation)).toEqual({ ok: true, status: 'EVIDENCE_SUBMISSION', amountStatus: 'SUBMITTED' });
    expect(decideDisputeAction('submit_evidence', mediation).ok).toBe(false);
    const evidence = { status: 'EVIDENCE_SUBMISSION', amountStatus: 'PENDING' } as const;
    expect(decideDisputeAction('submit_evidence', evidence)).toEqual({ ok: true, status: 'EVIDENCE_SUBMISSION', amountStatus: 'PENDING' });
    expect(decideDisputeAction('escalate', evidence).ok).toBe(false);
    for (const status of DISPUTE_STATUSES) {
      const open = !['RESOLVED', 'CANCELED'].includes(status);
      expect(decideDisputeAction('cancel', { status, amountStatus: 'PENDING' }).ok, status).toBe(open);
    }
  });

  it('lists escalation and evidence for both parties, proposals and cancellation for the seller', () => {
    expect(allowedDisputeActions({ status: 'INTRA_PARTY_MEDIATION', amountStatus: 'SUBMITTED' })).toEqual({
      buyer: ['approve_dispute_amount', 'reject_dispute_amount', 'counter_offer', 'escalate'],
      seller: ['add_dispute_amount', 'escalate', 'cancel'],
    });
    expect(allowedDisputeActions({ status: 'EVIDENCE_SUBMISSION', amountStatus: 'PENDING' })).toEqual({
      buyer: ['submit_evidence', 'extend_evidence'],
      seller: ['submit_evidence', 'extend_evidence', 'cancel'],
    });
    // Each party extends the evidence window once.
    expect(allowedDisputeActions({ status: 'EVIDENCE_SUBMISSION', amountStatus: 'PENDING' }, ['seller'])).toEqual({
      buyer: ['submit_evidence', 'extend_evidence'],
      seller: ['submit_evidence', 'cancel'],
    });
    expect(decideDisputeAction('extend_evidence', { status: 'INTRA_PARTY_MEDIATION', amountStatus: 'PENDING' }).ok).toBe(false);
    for (const status of ['RESOLVED', 'CANCELED'] as const) {
      expect(allowedDisputeActions({ status, amountStatus: 'SUBMITTED' })).toEqual({ buyer: [], seller: [] });
    }
  });
});

describe('counter-offers (decisions §13)', () => {
  it('the buyer offers during mediation, before or after a seller’s proposal, until an amount is agreed', () => {
    for (const amountStatus of ['PENDING', 'SUBMITTED', 'COUNTER_OFFERED'] as const) {
      expect(decideDisputeAction('counter_offer', { status: 'INTRA_PARTY_MEDIATION', amountStatus })).toEqual({ ok: true, status: 'INTRA_PARTY_MEDIATION', amountStatus: 'COUNTER_OFFERED' });
    }
    expect(decideDisputeAction('counter_offer', { status: 'INTRA_PARTY_MEDIATION', amountStatus: 'APPROVED' }).ok).toBe(false);
    expect(decideDisputeAction('counter_offer', { status: 'EVIDENCE_SUBMISSION', amountStatus: 'PENDING' }).ok).toBe(false);
  });

  it('the seller accepts only a standing counter-offer, settling as an approved amount, or proposes again', () => {
    const offered = { status: 'INTRA_PARTY_MEDIATION', amountStatus: 'COUNTER_OFFERED' } as const;
    expect(decideDisputeAction('accept_counter_offer', offered)).toEqual({ ok: true, status: 'RESOLVED', amountStatus: 'APPROVED' });
    expect(decideDisputeAction('add_dispute_amount', offered)).toEqual({ ok: true, status: 'INTRA_PARTY_MEDIATION', amountStatus: 'SUBMITTED' });
    for (const amountStatus of ['PENDING', 'SUBMITTED'] as const) {
      expect(decideDisputeAction('accept_counter_offer', { status: 'INTRA_PARTY_MEDIATION', amountStatus }).ok).toBe(false);
    }
    // The buyer cannot approve or reject its own offer.
    expect(decideDisputeAction('approve_dispute_amount', offered).ok).toBe(false);
    expect(decideDisputeAction('reject_dispute_amount', offered).ok).toBe(false);
    expect(allowedDisputeActions(offered)).toEqual({ buyer: ['counter_offer', 'escalate'], seller: ['add_dispute_amount', 'accept_counter_offer', 'escalate', 'cancel'] });
  });
});

describe('lapseOutcome', () => {
  it('escalates a lapsed mediation and judges a closed evidence window by who spoke', () => {
    expect(lapseOutcome({ status: 'INTRA_PARTY_MEDIATION', buyerEvidence: false, sellerEvidence: false })).toEqual({ kind: 'escalate' });
    const evidence = (buyerEvidence: boolean, sellerEvidence: boolean) => lapseOutcome({ status: 'EVIDENCE_SUBMISSION', buyerEvidence, sellerEvidence });
    expect(evidence(true, true)).toEqual({ kind: 'arbitration' });
    expect(evidence(true, false)).toEqual({ kind: 'forfeit', loser: 'seller' });
    expect(evidence(false, true)).toEqual({ kind: 'forfeit', loser: 'buyer' });
    expect(evidence(false, false)).toEqual({ kind: 'declined' });
    expect(lapseOutcome({ status: 'ARBITRATION', buyerEvidence: true, sellerEvidence: true })).toBeUndefined();
    // Declined arbitration the dispute team leaves undecided refunds the buyer (issue #25).
    expect(lapseOutcome({ status: 'ARBITRATION_DECLINED', buyerEvidence: false, sellerEvidence: false })).toEqual({ kind: 'declined_refund' });
  });
});
