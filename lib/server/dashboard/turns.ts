import 'server-only';
import type { DisputeSummary, Transaction } from '@/lib/contracts/dashboard';

type Party = 'buyer' | 'seller';

/** One step this person owes now, with the deadline it runs against and the page it is taken on. */
export type Turn = { action: string; dueAt: string | null; href: string };

/**
 * Actions the API allows that are choices, never a turn someone owes: asking for a later due date, cancelling,
 * terminating, rating, escalating, extending the evidence window, withdrawing a dispute, a seller's refund and a
 * buyer's offer to pay part (docs/decisions.md §17).
 */
const CHOICES = new Set(['request_extension', 'cancel', 'terminate', 'rate', 'escalate', 'extend_evidence', 'refund', 'propose_partial_acceptance']);

const soonest = (dates: (string | null | undefined)[]): string | null =>
  dates.filter((d): d is string => Boolean(d)).sort((a, b) => Date.parse(a) - Date.parse(b))[0] ?? null;

/**
 * Mediation takes turns: the seller proposes (or answers a counter-offer), then the buyer answers. The API lets the
 * seller revise while the buyer considers, so allowed_actions alone would put the deal on both lists.
 */
function disputeTurns(dispute: DisputeSummary, party: Party): string[] {
  const allowed = dispute.allowed_actions[party].filter((a) => !CHOICES.has(a));
  if (dispute.status === 'EVIDENCE_SUBMISSION') {
    const submitted = party === 'buyer' ? dispute.is_buyer_evidence_submitted : dispute.is_seller_evidence_submitted;
    return submitted ? [] : allowed.filter((a) => a === 'submit_evidence');
  }
  if (dispute.status !== 'INTRA_PARTY_MEDIATION') return [];
  const sellersTurn = dispute.dispute_amount_status === 'PENDING' || dispute.dispute_amount_status === 'COUNTER_OFFERED';
  const buyersTurn = dispute.dispute_amount_status === 'SUBMITTED';
  if (party === 'seller' && !sellersTurn) return [];
  if (party === 'buyer' && !buyersTurn) return [];
  return allowed;
}

/**
 * Every step the party owes on a transaction: the transaction's (answering a cancellation request), each
 * milestone's, and each open dispute's, each with the soonest deadline of the thing it belongs to.
 */
export function turnsOf(transaction: Transaction, disputes: DisputeSummary[], party: Party): Turn[] {
  const page = `/transactions/${transaction.id}`;
  const turns: Turn[] = [];
  for (const action of transaction.allowed_actions[party].filter((a) => !CHOICES.has(a))) {
    turns.push({ action, dueAt: soonest(transaction.deadlines.map((d) => d.due_at)), href: page });
  }
  for (const milestone of transaction.milestones) {
    const due = soonest([...milestone.deadlines.map((d) => d.due_at), ...(milestone.allowed_actions[party].includes('deliver') ? [milestone.due_date] : [])]);
    for (const action of milestone.allowed_actions[party].filter((a) => !CHOICES.has(a))) turns.push({ action, dueAt: due, href: page });
  }
  for (const dispute of disputes) {
    const due = soonest(dispute.deadlines.map((d) => d.due_at));
    for (const action of disputeTurns(dispute, party)) turns.push({ action, dueAt: due, href: `/disputes/${dispute.id}` });
  }
  return turns;
}

/** The turn to show first: the one whose deadline comes soonest (those without one last). */
export function firstTurn(turns: Turn[]): Turn | undefined {
  return [...turns].sort((a, b) => (a.dueAt ? Date.parse(a.dueAt) : Infinity) - (b.dueAt ? Date.parse(b.dueAt) : Infinity))[0];
}
