import 'server-only';
import type { EmailOutboxRow } from '../db/schema';
import { env } from '../env';
import {
  amountProposedEmail,
  deadlineReminderEmail,
  deliveryAwaitsInspectionEmail,
  disputeResolvedEmail,
  payoutEmail,
  type EmailContent,
  type RemindedDeadline,
} from './templates';

/** Where links in emails point: the dashboard's public address. */
export function dashboardLinkBase(): string {
  const { NEXTAUTH_URL, ESCROW_PUBLIC_URL, PORT } = env();
  return (NEXTAUTH_URL ?? ESCROW_PUBLIC_URL ?? `http://localhost:${PORT}`).replace(/\/+$/, '');
}

/**
 * What each templated email needs to be rendered, as a write records it in the outbox (instants as ISO
 * text, amounts in kobo). `path` is the dashboard page to act on, null for a recipient without an account.
 */
export type FactsOf = {
  delivery_awaits_inspection: { milestoneTitle: string; transactionTitle: string; amountKobo: number; inspectionEndsAt: string };
  amount_proposed: { amountKobo: number; milestoneTitle: string; disputeCode: string; mediationEndsAt: string | null };
  dispute_resolved: { disputeCode: string; milestoneTitle: string; outcome: string };
  payout_paid: { amountKobo: number; bankLine: string | null; reason: string | null };
  payout_failed: { amountKobo: number; bankLine: string | null; reason: string | null };
  deadline_reminder: { name: string; deadline: RemindedDeadline; subjectTitle: string; dueAt: string };
};
export type TemplatedKind = keyof FactsOf;
export type StoredFacts<K extends TemplatedKind = TemplatedKind> = FactsOf[K] & { path: string | null };

const TEMPLATES: { [K in TemplatedKind]: (facts: FactsOf[K], link: string | null) => EmailContent } = {
  delivery_awaits_inspection: (f, link) => deliveryAwaitsInspectionEmail({ ...f, inspectionEndsAt: new Date(f.inspectionEndsAt), link }),
  amount_proposed: (f, link) => amountProposedEmail({ ...f, mediationEndsAt: f.mediationEndsAt === null ? null : new Date(f.mediationEndsAt), link }),
  dispute_resolved: (f, link) => disputeResolvedEmail({ ...f, link }),
  payout_paid: (f, link) => payoutEmail({ outcome: 'paid', ...f, link }),
  payout_failed: (f, link) => payoutEmail({ outcome: 'failed', ...f, link }),
  deadline_reminder: (f, link) => deadlineReminderEmail({ ...f, dueAt: new Date(f.dueAt), link }),
};

/** An outbox row's words: as stored (an invitation), else its kind's template over its facts. */
export function emailContent(row: Pick<EmailOutboxRow, 'kind' | 'facts' | 'subject' | 'textBody' | 'htmlBody'>): EmailContent {
  if (row.facts === null || row.kind === 'invitation') return { subject: row.subject ?? '', text: row.textBody ?? '', html: row.htmlBody ?? '' };
  const facts = row.facts as StoredFacts;
  const link = facts.path === null ? null : `${dashboardLinkBase()}${facts.path}`;
  return (TEMPLATES[row.kind] as (facts: unknown, link: string | null) => EmailContent)(facts, link);
}
