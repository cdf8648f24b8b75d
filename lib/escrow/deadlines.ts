/** The `deadlines` every milestone and dispute carries (decisions §10): what runs, until when, and what happens at lapse. */
import type { DisputeStatus } from './dispute-machine';
import type { MilestoneStatus } from './milestone-machine';

export const INSPECTION_DAYS_DEFAULT = 3;
export const RETURN_WINDOW_DAYS = 7;
export const MEDIATION_BUSINESS_DAYS = 3;
export const EVIDENCE_BUSINESS_DAYS = 3;

export type Deadline = {
  name: 'inspection' | 'return_response' | 'intra_party_mediation' | 'evidence_submission';
  due_at: Date;
  counted_in: 'calendar_days' | 'business_days';
  on_lapse: string;
};

/** A deadline acts at its instant: due once `now` reaches it. */
export function isDue(deadline: Deadline, now: Date): boolean {
  return deadline.due_at.getTime() <= now.getTime();
}

export function milestoneDeadlines(m: {
  status: MilestoneStatus;
  inspectionEndDate: Date | null;
  returnDeadlineDate: Date | null;
}): Deadline[] {
  if (m.status === 'UNDER_INSPECTION' && m.inspectionEndDate) {
    return [{ name: 'inspection', due_at: m.inspectionEndDate, counted_in: 'calendar_days', on_lapse: 'delivery_accepted' }];
  }
  if (m.status === 'DELIVERY_RETURNED_AWAITING_APPROVAL' && m.returnDeadlineDate) {
    return [{ name: 'return_response', due_at: m.returnDeadlineDate, counted_in: 'calendar_days', on_lapse: 'return_approved' }];
  }
  return [];
}

export function disputeDeadlines(d: {
  status: DisputeStatus;
  mediationEndDate: Date;
  evidenceEndDate: Date | null;
}): Deadline[] {
  if (d.status === 'INTRA_PARTY_MEDIATION') {
    return [{ name: 'intra_party_mediation', due_at: d.mediationEndDate, counted_in: 'business_days', on_lapse: 'escalated_to_evidence_submission' }];
  }
  if (d.status === 'EVIDENCE_SUBMISSION' && d.evidenceEndDate) {
    return [{ name: 'evidence_submission', due_at: d.evidenceEndDate, counted_in: 'business_days', on_lapse: 'forfeit_or_arbitration' }];
  }
  return [];
}
