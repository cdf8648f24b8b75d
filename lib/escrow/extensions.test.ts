import { describe, expect, it } from 'vitest';
import { allowedExtensionActions, decideEvidenceExtension, decideExtensionAnswer, decideExtensionRequest, type ExtensionMilestone } from './extensions';

const NOW = new Date('2026-12-01T12:00:00Z');
const DUE = new Date('2026-12-05T12:00:00Z');
const NEW_DUE = new Date('2026-12-12T12:00:00Z');
const milestone = (over: Partial<ExtensionMilestone> = {}): ExtensionMilestone => ({ status: 'IN_PROGRESS', dueDate: DUE, extensions: [], ...over });

describe('due-date extensions', () => {
  it('a seller asks before delivery; the buyer’s approval moves the due date and counts the extension', () => {
    const asked = decideExtensionRequest(milestone(), { dueDate: NEW_DUE, reason: 'Supplier late' }, NOW);
    expect(asked).toEqual({ ok: true, extensions: [{ dueDate: NEW_DUE, reason: 'Supplier late', status: 'PENDING', requestedAt: NOW, answeredAt: null }] });
    if (!asked.ok) return;
    const approved = decideExtensionAnswer(milestone({ extensions: asked.extensions }), 'approve', NOW);
    expect(approved).toMatchObject({ ok: true, dueDate: NEW_DUE, currentExtensionIndex: 0, extensions: [{ status: 'APPROVED', answeredAt: NOW }] });
    if (!approved.ok) return;
    // A second request, declined: the due date and the index stay with the first.
    const again = decideExtensionRequest(milestone({ dueDate: NEW_DUE, extensions: approved.extensions }), { dueDate: new Date('2026-12-20T00:00:00Z'), reason: 'More' }, NOW);
    if (!again.ok) throw new Error(again.message);
    expect(decideExtensionAnswer(milestone({ dueDate: NEW_DUE, extensions: again.extensions }), 'decline', NOW)).toMatchObject({
      ok: true, dueDate: NEW_DUE, currentExtensionIndex: 0, extensions: [{ status: 'APPROVED' }, { status: 'DECLINED' }],
    });
  });

  it('refuses a second pending request, a request after delivery, and a date not later than now and the current one', () => {
    const pending = milestone({ extensions: [{ dueDate: NEW_DUE, reason: 'x', status: 'PENDING', requestedAt: NOW, answeredAt: null }] });
    expect(decideExtensionRequest(pending, { dueDate: NEW_DUE, reason: 'y' }, NOW)).toMatchObject({ ok: false, code: 'INVALID_STATE' });
    expect(decideExtensionRequest(milestone({ status: 'UNDER_INSPECTION' }), { dueDate: NEW_DUE, reason: 'y' }, NOW)).toMatchObject({ ok: false, code: 'INVALID_STATE' });
    expect(decideExtensionRequest(milestone(), { dueDate: DUE, reason: 'y' }, NOW)).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    expect(decideExtensionRequest(milestone({ dueDate: new Date('2026-11-01T00:00:00Z') }), { dueDate: new Date('2026-11-30T00:00:00Z'), reason: 'y' }, NOW)).toMatchObject({
      ok: false, code: 'VALIDATION_ERROR', message: 'The new due date must be in the future.',
    });
  });

  it('answers only a pending request, and approves none once the milestone is delivered', () => {
    expect(decideExtensionAnswer(milestone(), 'approve', NOW)).toMatchObject({ ok: false, message: 'There is no extension request to answer.' });
    const delivered = milestone({ status: 'UNDER_INSPECTION', extensions: [{ dueDate: NEW_DUE, reason: 'x', status: 'PENDING', requestedAt: NOW, answeredAt: null }] });
    expect(decideExtensionAnswer(delivered, 'approve', NOW).ok).toBe(false);
    expect(decideExtensionAnswer(delivered, 'decline', NOW).ok).toBe(true);
  });
});

describe('who may act on a due date', () => {
  const pending = [{ dueDate: NEW_DUE, reason: 'x', status: 'PENDING' as const, requestedAt: NOW, answeredAt: null }];

  it('the seller asks before delivery when nothing is pending; the buyer answers a pending request', () => {
    expect(allowedExtensionActions(milestone({ status: 'PENDING_FUNDING' }))).toEqual({ buyer: [], seller: ['request_extension'] });
    expect(allowedExtensionActions(milestone())).toEqual({ buyer: [], seller: ['request_extension'] });
    expect(allowedExtensionActions(milestone({ extensions: pending }))).toEqual({ buyer: ['approve_extension', 'decline_extension'], seller: [] });
  });

  it('after delivery nobody asks, and a request still pending can only be declined', () => {
    expect(allowedExtensionActions(milestone({ status: 'UNDER_INSPECTION' }))).toEqual({ buyer: [], seller: [] });
    expect(allowedExtensionActions(milestone({ status: 'UNDER_INSPECTION', extensions: pending }))).toEqual({ buyer: ['decline_extension'], seller: [] });
    expect(allowedExtensionActions(milestone({ status: 'CANCELED' }))).toEqual({ buyer: [], seller: [] });
  });
});

describe('evidence-window extensions', () => {
  const holidays = new Set<string>();
  // Monday 7 December 2026, 17:00 in Lagos.
  const end = new Date('2026-12-07T16:00:00Z');

  it('add two business days, once per party', () => {
    const first = decideEvidenceExtension({ status: 'EVIDENCE_SUBMISSION', evidenceSubmissionEndDate: end, extendedBy: [] }, 'buyer', holidays);
    expect(first).toEqual({ ok: true, evidenceSubmissionEndDate: new Date('2026-12-09T16:00:00Z'), extendedBy: ['buyer'] });
    if (!first.ok) return;
    const window = { status: 'EVIDENCE_SUBMISSION' as const, evidenceSubmissionEndDate: first.evidenceSubmissionEndDate, extendedBy: first.extendedBy };
    expect(decideEvidenceExtension(window, 'buyer', holidays)).toMatchObject({ ok: false, message: 'The buyer has already extended the evidence window once.' });
    expect(decideEvidenceExtension(window, 'seller', holidays)).toEqual({ ok: true, evidenceSubmissionEndDate: new Date('2026-12-11T16:00:00Z'), extendedBy: ['buyer', 'seller'] });
  });

  it('skip weekends and holidays, and are refused outside evidence submission', () => {
    // Friday 11 December 2026 + 2 business days = Tuesday 15th; with Monday a holiday, Wednesday 16th.
    const friday = new Date('2026-12-11T16:00:00Z');
    expect(decideEvidenceExtension({ status: 'EVIDENCE_SUBMISSION', evidenceSubmissionEndDate: friday, extendedBy: [] }, 'seller', holidays)).toMatchObject({ evidenceSubmissionEndDate: new Date('2026-12-15T16:00:00Z') });
    expect(decideEvidenceExtension({ status: 'EVIDENCE_SUBMISSION', evidenceSubmissionEndDate: friday, extendedBy: [] }, 'seller', new Set(['2026-12-14']))).toMatchObject({ evidenceSubmissionEndDate: new Date('2026-12-16T16:00:00Z') });
    for (const status of ['INTRA_PARTY_MEDIATION', 'ARBITRATION', 'RESOLVED'] as const) {
      expect(decideEvidenceExtension({ status, evidenceSubmissionEndDate: end, extendedBy: [] }, 'buyer', holidays).ok).toBe(false);
    }
  });
});
