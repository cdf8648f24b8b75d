/**
 * Extensions (docs/decisions.md §13): a seller's request to move an undelivered milestone's due date, answered by
 * the buyer, and either party's one extension of a dispute's evidence window. Pure.
 */
import { addBusinessDays } from './business-days';
import type { DisputeStatus } from './dispute-machine';
import type { MilestoneStatus, PartyRole } from './milestone-machine';

export const EXTENSION_STATUSES = ['PENDING', 'APPROVED', 'DECLINED'] as const;
export type ExtensionStatus = (typeof EXTENSION_STATUSES)[number];

export type Extension = { dueDate: Date; reason: string; status: ExtensionStatus; requestedAt: Date; answeredAt: Date | null };

export type ExtensionMilestone = { status: MilestoneStatus; dueDate: Date; extensions: readonly Extension[] };

/** What a party may do about a milestone's due date; beside the milestone's steps in its allowed_actions. */
export const EXTENSION_ACTIONS = ['request_extension', 'approve_extension', 'decline_extension'] as const;
export type ExtensionAction = (typeof EXTENSION_ACTIONS)[number];

/** Business days the evidence window grows by, once per party. */
export const EVIDENCE_EXTENSION_BUSINESS_DAYS = 2;

type Refusal = { ok: false; code: 'VALIDATION_ERROR' | 'INVALID_STATE'; message: string };
const invalid = (message: string): Refusal => ({ ok: false, code: 'INVALID_STATE', message });

/** Before delivery: the milestone awaits funding or delivery. */
const EXTENDABLE: ReadonlySet<MilestoneStatus> = new Set(['PENDING_FUNDING', 'IN_PROGRESS']);

export function pendingExtension(m: Pick<ExtensionMilestone, 'extensions'>): Extension | undefined {
  return m.extensions.find((e) => e.status === 'PENDING');
}

/** The seller may ask while nothing is pending before delivery; the buyer answers what is pending (approval only before delivery). */
export function allowedExtensionActions(m: Pick<ExtensionMilestone, 'status' | 'extensions'>): { buyer: ExtensionAction[]; seller: ExtensionAction[] } {
  if (!pendingExtension(m)) return { buyer: [], seller: EXTENDABLE.has(m.status) ? ['request_extension'] : [] };
  return { buyer: EXTENDABLE.has(m.status) ? ['approve_extension', 'decline_extension'] : ['decline_extension'], seller: [] };
}

/** `POST /v1/milestones/{id}/extensions` by the seller: the extensions as they stand after the request. */
export function decideExtensionRequest(
  m: ExtensionMilestone,
  request: { dueDate: Date; reason: string },
  now: Date,
): { ok: true; extensions: Extension[] } | Refusal {
  if (!EXTENDABLE.has(m.status)) return invalid(`A due date can be extended only before delivery; the milestone is ${m.status}.`);
  if (pendingExtension(m)) return invalid('An extension request for this milestone is already waiting for the buyer’s answer.');
  if (request.dueDate.getTime() <= now.getTime()) return { ok: false, code: 'VALIDATION_ERROR', message: 'The new due date must be in the future.' };
  if (request.dueDate.getTime() <= m.dueDate.getTime()) {
    return { ok: false, code: 'VALIDATION_ERROR', message: `The new due date must be later than the current one (${m.dueDate.toISOString()}).` };
  }
  return { ok: true, extensions: [...m.extensions, { dueDate: request.dueDate, reason: request.reason, status: 'PENDING', requestedAt: now, answeredAt: null }] };
}

/**
 * `PATCH /v1/milestones/{id}/extensions/approve|decline` by the buyer (or the service, when the request
 * lapses unanswered): the extensions after the answer, and on approval the new due date and the index of
 * the approved extension (`current_extension_index`).
 */
export function decideExtensionAnswer(
  m: ExtensionMilestone,
  answer: 'approve' | 'decline',
  now: Date,
): { ok: true; extensions: Extension[]; dueDate: Date; currentExtensionIndex: number | null } | Refusal {
  const index = m.extensions.findIndex((e) => e.status === 'PENDING');
  if (index < 0) return invalid('There is no extension request to answer.');
  // A request outlives a delivery only if answered late: the due date no longer matters then.
  if (answer === 'approve' && !EXTENDABLE.has(m.status)) return invalid(`The milestone was delivered meanwhile (status ${m.status}); its due date no longer applies.`);
  const status: ExtensionStatus = answer === 'approve' ? 'APPROVED' : 'DECLINED';
  const extensions = m.extensions.map((e, i) => (i === index ? { ...e, status, answeredAt: now } : e));
  const approved = extensions.map((e) => e.status).lastIndexOf('APPROVED');
  return { ok: true, extensions, dueDate: answer === 'approve' ? m.extensions[index]!.dueDate : m.dueDate, currentExtensionIndex: approved < 0 ? null : approved };
}

export type EvidenceWindow = {
  status: DisputeStatus;
  evidenceSubmissionEndDate: Date | null;
  /** The parties that have extended the window already. */
  extendedBy: readonly PartyRole[];
};

/** `POST /v1/dispute/{id}/evidence/extension`: once per party, while evidence is taken. */
export function decideEvidenceExtension(
  d: EvidenceWindow,
  by: PartyRole,
  holidays: ReadonlySet<string>,
): { ok: true; evidenceSubmissionEndDate: Date; extendedBy: PartyRole[] } | Refusal {
  if (d.status !== 'EVIDENCE_SUBMISSION' || !d.evidenceSubmissionEndDate) {
    return invalid(`The evidence window can be extended only during evidence submission; the dispute is ${d.status}.`);
  }
  if (d.extendedBy.includes(by)) return invalid(`The ${by} has already extended the evidence window once.`);
  return {
    ok: true,
    evidenceSubmissionEndDate: addBusinessDays(d.evidenceSubmissionEndDate, EVIDENCE_EXTENSION_BUSINESS_DAYS, holidays),
    extendedBy: [...d.extendedBy, by],
  };
}

