/**
 * What `deadline.approaching` and `deadline.lapsed` say of a deadline (docs/decisions.md §19), and the key
 * that makes each be recorded once per deadline instant whoever writes it. Pure: the records come in.
 */
import { DEADLINE_OWED_BY, DEADLINES, type DeadlineName } from './deadlines';
import type { Lapse } from './lapses';

export type DeadlineEventType = 'deadline.approaching' | 'deadline.lapsed';

/** A checkout's expiry is a deadline too, kept by the checkout runner rather than the lapse engine. */
export const CHECKOUT_EXPIRY = 'checkout_expiry';

export type DeadlineEventData = {
  record: 'milestone' | 'dispute' | 'transaction' | 'checkout';
  id: string;
  /** The transaction whose event sequence it joins: a wallet top-up's checkout has none. */
  transaction_id: string | null;
  name: DeadlineName | typeof CHECKOUT_EXPIRY;
  due_at: string;
  on_lapse: string;
  owed_by: 'buyer' | 'seller' | 'both' | null;
};

/** Whose move the deadline waits for; a cancellation's answer is owed by the party that did not ask. */
export function owedBy(name: DeadlineName, requestedBy: 'buyer' | 'seller' | null = null): DeadlineEventData['owed_by'] {
  const owed = DEADLINE_OWED_BY[name];
  if (owed !== 'answerer') return owed;
  if (requestedBy === null) return null;
  return requestedBy === 'buyer' ? 'seller' : 'buyer';
}

function ruleOf(name: DeadlineName) {
  const rule = DEADLINES.find((r) => r.name === name);
  if (!rule) throw new Error(`no deadline named ${name}`);
  return rule;
}

/** A running deadline as the approaching scan finds it (the record's id, its transaction, its instant). */
export function approachingDeadline(a: { name: DeadlineName; recordId: string; transactionId: string; dueAt: Date; requestedBy?: 'buyer' | 'seller' | null }): DeadlineEventData {
  const rule = ruleOf(a.name);
  return {
    record: rule.record,
    id: a.recordId,
    transaction_id: a.transactionId,
    name: a.name,
    due_at: a.dueAt.toISOString(),
    on_lapse: rule.on_lapse,
    owed_by: owedBy(a.name, a.requestedBy ?? null),
  };
}

/** The deadline a lapse acts on, named as the event says it: a cancellation's says which way it went. */
export function lapsedDeadline(lapse: Lapse, transactionId: string): DeadlineEventData {
  const rule = ruleOf(lapse.deadline);
  if (lapse.kind === 'cancellation_lapsed') {
    return {
      record: 'transaction',
      id: transactionId,
      transaction_id: transactionId,
      name: lapse.deadline,
      due_at: lapse.dueAt.toISOString(),
      on_lapse: lapse.outcome === 'approve' ? 'cancellation_approved' : 'cancellation_declined',
      owed_by: owedBy(lapse.deadline, lapse.requestedBy),
    };
  }
  const id = rule.record === 'dispute' && 'disputeId' in lapse ? lapse.disputeId : lapse.milestoneId;
  return { record: rule.record, id, transaction_id: transactionId, name: lapse.deadline, due_at: lapse.dueAt.toISOString(), on_lapse: rule.on_lapse, owed_by: owedBy(lapse.deadline) };
}

/**
 * A checkout's expiry: the payer's move (the buyer's, for a milestone's checkout). It runs 30 minutes
 * (CHECKOUT_EXPIRY_MS in checkouts.ts), less than the 24 hours' notice, so it has a `deadline.lapsed` and no `deadline.approaching`.
 */
export function checkoutExpiryDeadline(c: { id: string; transactionId: string | null; expiresAt: Date }): DeadlineEventData {
  return {
    record: 'checkout',
    id: c.id,
    transaction_id: c.transactionId,
    name: CHECKOUT_EXPIRY,
    due_at: c.expiresAt.toISOString(),
    on_lapse: 'checkout_expired',
    owed_by: c.transactionId === null ? null : 'buyer',
  };
}

/** One event of each type per deadline instant: a moved deadline is announced again, a repeat pass writes nothing. */
export function deadlineDedupeKey(type: DeadlineEventType, d: Pick<DeadlineEventData, 'name' | 'id' | 'due_at'>): string {
  return `${type}:${d.name}:${d.id}:${Date.parse(d.due_at)}`;
}
