import 'server-only';
import { formatLagosDateTime } from '@/lib/escrow/business-days';
import type { DeadlineName } from '@/lib/escrow/deadlines';
import { formatNaira } from '@/lib/escrow/money';

/**
 * What each email says (docs/decisions.md §15), as plain text and HTML from the same parts: amounts in naira,
 * times in WAT, and the page to act on. Pure: the link's base and every instant come in as arguments.
 * `link` is null for a customer without a dashboard account, who acts through the marketplace instead.
 */
export type EmailContent = { subject: string; text: string; html: string };

type Action = { label: string; url: string | null };
type Parts = { subject: string; greeting: string; paragraphs: string[]; facts?: Array<[string, string]>; action?: Action };

const NO_ACCOUNT = 'Act on it where you made this deal, on the marketplace.';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The one place text and HTML are put together, so every value in the HTML is escaped the same way. */
function compose(p: Parts): EmailContent {
  const facts = p.facts ?? [];
  const text = [
    p.greeting,
    ...p.paragraphs,
    ...(facts.length ? [facts.map(([label, value]) => `${label}: ${value}`).join('\n')] : []),
    ...(p.action ? [p.action.url ? `${p.action.label}: ${p.action.url}` : NO_ACCOUNT] : []),
    '— Escrow Desk',
  ].join('\n\n');
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">',
    `<p>${escapeHtml(p.greeting)}</p>`,
    ...p.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ...(facts.length
      ? [`<table role="presentation">${facts.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>`]
      : []),
    ...(p.action
      ? [p.action.url ? `<p><a href="${escapeHtml(p.action.url)}">${escapeHtml(p.action.label)}</a></p>` : `<p>${escapeHtml(NO_ACCOUNT)}</p>`]
      : []),
    '<p>— Escrow Desk</p></body></html>',
  ].join('\n');
  return { subject: p.subject, text, html };
}

const hello = (name?: string) => (name?.trim() ? `Hello ${name.trim()},` : 'Hello,');
const quoted = (title: string) => `“${title}”`;

export function invitationEmail(a: { name?: string; inviteUrl: string; expiresAt: Date; invitedAs?: string }): EmailContent {
  return compose({
    subject: 'Your invitation to Escrow Desk',
    greeting: hello(a.name),
    paragraphs: [
      a.invitedAs
        ? `You have been invited to the Escrow Desk dashboard as ${a.invitedAs}.`
        : 'You have been invited to the Escrow Desk dashboard, where you follow your escrow deals and act on them.',
      `Choose your password with the link below. It works once, until ${formatLagosDateTime(a.expiresAt)}.`,
    ],
    action: { label: 'Set your password', url: a.inviteUrl },
  });
}

export function deliveryAwaitsInspectionEmail(a: {
  name?: string;
  milestoneTitle: string;
  transactionTitle: string;
  amountKobo: number;
  inspectionEndsAt: Date;
  link: string | null;
}): EmailContent {
  return compose({
    subject: `A delivery awaits your inspection: ${quoted(a.milestoneTitle)}`,
    greeting: hello(a.name),
    paragraphs: [
      `The seller delivered ${quoted(a.milestoneTitle)} of ${quoted(a.transactionTitle)}. Inspect it and accept it, or reject it with a reason.`,
      `If you do nothing by ${formatLagosDateTime(a.inspectionEndsAt)}, the delivery is accepted and the seller is paid.`,
    ],
    facts: [
      ['Milestone', a.milestoneTitle],
      ['Amount held', formatNaira(a.amountKobo)],
      ['Inspect by', formatLagosDateTime(a.inspectionEndsAt)],
    ],
    action: { label: 'Inspect the delivery', url: a.link },
  });
}

/** The spec's buyer notification: the seller's proposed settlement in mediation. */
export function amountProposedEmail(a: { name?: string; amountKobo: number; milestoneTitle: string; disputeCode: string; mediationEndsAt: Date | null; link: string | null }): EmailContent {
  const amount = formatNaira(a.amountKobo);
  return compose({
    subject: `The seller proposed ${amount} for ${quoted(a.milestoneTitle)}`,
    greeting: hello(a.name),
    paragraphs: [
      `In dispute ${a.disputeCode} over ${quoted(a.milestoneTitle)}, the seller proposed to settle at ${amount}: that much goes to the seller, the rest back to you.`,
      'Approve it, reject it, or offer another amount.',
    ],
    facts: [
      ['Proposed amount', amount],
      ['Dispute', a.disputeCode],
      ...(a.mediationEndsAt ? ([['Mediation ends', formatLagosDateTime(a.mediationEndsAt)]] as Array<[string, string]>) : []),
    ],
    action: { label: 'Answer the proposal', url: a.link },
  });
}

export function payoutEmail(a: { name?: string; outcome: 'paid' | 'failed'; amountKobo: number; bankLine: string | null; reason: string | null; link: string | null }): EmailContent {
  const amount = formatNaira(a.amountKobo);
  const to = a.bankLine ? ` to ${a.bankLine}` : '';
  return a.outcome === 'paid'
    ? compose({
        subject: `Payout of ${amount} paid`,
        greeting: hello(a.name),
        paragraphs: [`Your payout of ${amount}${to} has been paid.`],
        facts: [['Amount', amount], ...(a.bankLine ? ([['To', a.bankLine]] as Array<[string, string]>) : [])],
        action: { label: 'See your wallet', url: a.link },
      })
    : compose({
        subject: `Payout of ${amount} failed`,
        greeting: hello(a.name),
        paragraphs: [`Your payout of ${amount}${to} failed${a.reason ? `: ${a.reason}` : ''}.`, 'The money is back in your wallet. Check your bank account details and pay out again.'],
        facts: [['Amount', amount], ...(a.bankLine ? ([['To', a.bankLine]] as Array<[string, string]>) : [])],
        action: { label: 'See your wallet', url: a.link },
      });
}

export function disputeResolvedEmail(a: { name?: string; disputeCode: string; milestoneTitle: string; outcome: string; link: string | null }): EmailContent {
  return compose({
    subject: `Dispute ${a.disputeCode} is resolved`,
    greeting: hello(a.name),
    paragraphs: [`The dispute ${a.disputeCode} over ${quoted(a.milestoneTitle)} is resolved.`, a.outcome],
    action: { label: 'See the dispute', url: a.link },
  });
}

/** What the person reminded must do before each deadline, and what its lapse does otherwise. */
const REMINDER_OF: Record<Exclude<DeadlineName, 'declined_refund'>, { move: string; lapse: string }> = {
  inspection: { move: 'Inspect the delivery of', lapse: 'the delivery is accepted and the seller is paid' },
  partial_acceptance_response: { move: "Answer the buyer's offer to pay part of", lapse: "the offer is accepted: its amount goes to you and the rest back to the buyer" },
  return_response: { move: 'Answer the return of', lapse: 'the return is approved and the buyer refunded' },
  extension_response: { move: "Answer the seller's request for more time on", lapse: 'the request is declined and the due date stands' },
  dispute_opening: { move: 'Open a dispute over the rejected return of', lapse: 'the service opens the dispute itself' },
  intra_party_mediation: { move: 'Agree on a settlement of', lapse: 'the dispute moves on to evidence submission' },
  evidence_submission: { move: 'Submit your evidence about', lapse: 'a party that has submitted none forfeits the dispute' },
  cancellation_response: { move: 'Answer the cancellation request for', lapse: 'the request lapses the way the rules say (see the transaction)' },
};

export type RemindedDeadline = keyof typeof REMINDER_OF;

export function deadlineReminderEmail(a: { name?: string; deadline: RemindedDeadline; subjectTitle: string; dueAt: Date; link: string | null }): EmailContent {
  const { move, lapse } = REMINDER_OF[a.deadline];
  const due = formatLagosDateTime(a.dueAt);
  return compose({
    subject: `Reminder: ${move.charAt(0).toLowerCase()}${move.slice(1)} ${quoted(a.subjectTitle)} by ${due}`,
    greeting: hello(a.name),
    paragraphs: [`${move} ${quoted(a.subjectTitle)} by ${due}.`, `If nothing is done by then, ${lapse}.`],
    facts: [['Deadline', due]],
    action: { label: 'Act now', url: a.link },
  });
}
