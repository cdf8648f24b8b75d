/**
 * Whose turn it is on a transaction (docs/decisions.md §17): the steps each party owes now, each with the soonest
 * deadline of the thing it belongs to. Read from what the records already say (allowed_actions and deadlines of the
 * transaction, its milestones and its open disputes), so the API's list answers and the dashboard agree. Pure.
 */

export type Party = 'buyer' | 'seller';
type Allowed = { buyer: readonly string[]; seller: readonly string[] };
type Dated = { due_at: string };

export type TurnsTransaction = {
  allowed_actions: Allowed;
  deadlines: readonly Dated[];
  milestones: ReadonlyArray<{ id: string; due_date: string; allowed_actions: Allowed; deadlines: readonly Dated[] }>;
};

export type TurnsDispute = {
  id: string;
  milestone_id: string;
  status: string;
  dispute_amount_status: string;
  is_buyer_evidence_submitted: boolean;
  is_seller_evidence_submitted: boolean;
  allowed_actions: Allowed;
  deadlines: readonly Dated[];
};

/** One step a party owes now, the deadline it runs against, and the milestone or dispute it is taken on (null: the transaction). */
export type Turn = { action: string; due_at: string | null; milestone_id: string | null; dispute_id: string | null };

/** The soonest deadline of all the steps owed, and whose it is. */
export type NextDeadline = { due_at: string; owed_by: Party; action: string; milestone_id: string | null; dispute_id: string | null };

/**
 * Actions the API allows that are choices, never a turn someone owes: asking for a later due date, cancelling,
 * terminating, rating, escalating, extending the evidence window, a seller's refund and a buyer's offer to accept part.
 */
export const CHOICES: ReadonlySet<string> = new Set(['request_extension', 'cancel', 'terminate', 'rate', 'escalate', 'extend_evidence', 'refund', 'propose_partial_acceptance']);

const time = (due: string | null) => (due ? Date.parse(due) : Infinity);

function soonest(dates: readonly (string | null)[]): string | null {
  let best: string | null = null;
  for (const d of dates) if (d && time(d) < time(best)) best = d;
  return best;
}

/**
 * Mediation takes turns: the seller proposes (or answers a counter-offer), then the buyer answers. The API lets the
 * seller revise while the buyer considers, so allowed_actions alone would put the deal on both lists.
 */
function disputeTurns(dispute: TurnsDispute, party: Party): string[] {
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
 * Every step the party owes on a transaction: the transaction's (answering a cancellation request), each milestone's
 * (its due date counts for a delivery) and each open dispute's.
 */
export function turnsOf(transaction: TurnsTransaction, disputes: readonly TurnsDispute[], party: Party): Turn[] {
  const turns: Turn[] = [];
  const transactionDue = soonest(transaction.deadlines.map((d) => d.due_at));
  for (const action of transaction.allowed_actions[party]) {
    if (!CHOICES.has(action)) turns.push({ action, due_at: transactionDue, milestone_id: null, dispute_id: null });
  }
  for (const milestone of transaction.milestones) {
    const actions = milestone.allowed_actions[party];
    const due = soonest([...milestone.deadlines.map((d) => d.due_at), ...(actions.includes('deliver') ? [milestone.due_date] : [])]);
    for (const action of actions) if (!CHOICES.has(action)) turns.push({ action, due_at: due, milestone_id: milestone.id, dispute_id: null });
  }
  for (const dispute of disputes) {
    const due = soonest(dispute.deadlines.map((d) => d.due_at));
    for (const action of disputeTurns(dispute, party)) turns.push({ action, due_at: due, milestone_id: dispute.milestone_id, dispute_id: dispute.id });
  }
  return turns;
}

/** The turn to show first: the one whose deadline comes soonest (those without one last, in the order owed). */
export function firstTurn(turns: readonly Turn[]): Turn | undefined {
  let first: Turn | undefined;
  for (const turn of turns) if (!first || time(turn.due_at) < time(first.due_at)) first = turn;
  return first;
}

/** What each party owes on the transaction now, and the soonest deadline among all of it. */
export function awaitingOf(transaction: TurnsTransaction, disputes: readonly TurnsDispute[]): { awaiting: Record<Party, Turn[]>; next_deadline: NextDeadline | null } {
  const awaiting = { buyer: turnsOf(transaction, disputes, 'buyer'), seller: turnsOf(transaction, disputes, 'seller') };
  let next: NextDeadline | null = null;
  for (const owed_by of ['buyer', 'seller'] as const) {
    const turn = firstTurn(awaiting[owed_by]);
    if (turn?.due_at && (!next || time(turn.due_at) < time(next.due_at))) next = { due_at: turn.due_at, owed_by, action: turn.action, milestone_id: turn.milestone_id, dispute_id: turn.dispute_id };
  }
  return { awaiting, next_deadline: next };
}
