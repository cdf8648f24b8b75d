import type { BadgeTone } from '../ui/badge';

type Label = { label: string; tone: BadgeTone };

export const MILESTONE_STATUS: Record<string, Label> = {
  PENDING_FUNDING: { label: 'Awaiting funding', tone: 'grey' },
  IN_PROGRESS: { label: 'Funded · in progress', tone: 'blue' },
  UNDER_INSPECTION: { label: 'Under inspection', tone: 'amber' },
  COMPLETED: { label: 'Completed', tone: 'green' },
  DELIVERY_RETURNED_AWAITING_APPROVAL: { label: 'Returned · awaiting seller', tone: 'amber' },
  DELIVERY_RETURN_APPROVED: { label: 'Return approved · refunded', tone: 'green' },
  DELIVERY_RETURN_REJECTED: { label: 'Return rejected', tone: 'red' },
  IN_DISPUTE: { label: 'In dispute', tone: 'violet' },
  DISPUTE_RESOLVED: { label: 'Dispute resolved', tone: 'green' },
  CANCELED: { label: 'Canceled · refunded', tone: 'grey' },
  REFUNDED: { label: 'Refunded by the seller', tone: 'grey' },
};

export const TRANSACTION_STATUS: Record<string, Label> = {
  MILESTONE_PENDING_FUNDING: { label: 'Awaiting funding', tone: 'grey' },
  MILESTONE_IN_PROGRESS: { label: 'In progress', tone: 'blue' },
  MILESTONE_UNDER_INSPECTION: { label: 'Under inspection', tone: 'amber' },
  MILESTONE_RETURN_AWAITING_APPROVAL: { label: 'Return awaiting seller', tone: 'amber' },
  MILESTONE_RETURN_REJECTED: { label: 'Return rejected', tone: 'red' },
  MILESTONE_IN_DISPUTE: { label: 'In dispute', tone: 'violet' },
  COMPLETED: { label: 'Completed', tone: 'green' },
  CANCELED: { label: 'Canceled', tone: 'grey' },
  TERMINATED: { label: 'Ended after dispute', tone: 'grey' },
};

export const DISPUTE_STATUS: Record<string, Label> = {
  INTRA_PARTY_MEDIATION: { label: 'Mediation', tone: 'violet' },
  EVIDENCE_SUBMISSION: { label: 'Evidence submission', tone: 'amber' },
  ARBITRATION: { label: 'Arbitration', tone: 'amber' },
  ARBITRATION_DECLINED: { label: 'Arbitration declined', tone: 'red' },
  RESOLVED: { label: 'Resolved', tone: 'green' },
  CANCELED: { label: 'Withdrawn', tone: 'grey' },
};

export const PAYOUT_STATUS: Record<string, Label> = {
  PENDING: { label: 'Waiting to be sent', tone: 'grey' },
  PROCESSING: { label: 'On its way', tone: 'blue' },
  PAID: { label: 'Paid', tone: 'green' },
  FAILED: { label: 'Failed · money back in the wallet', tone: 'red' },
  REVERSED: { label: 'Returned by the bank · money back in the wallet', tone: 'amber' },
};

/** A statement line's or payout source's kind (docs/decisions.md §18) as a person says it. */
export const STATEMENT_KIND: Record<string, string> = {
  funding: 'Money in by transfer',
  checkout: 'Card payment',
  escrow_funded: 'Paid into escrow',
  escrow_refunded: 'Back from escrow',
  release: 'Payment for a deal',
  payout: 'Withdrawal',
  payout_returned: 'Withdrawal returned',
};

export const CHECKOUT_STATUS: Record<string, Label> = {
  PENDING: { label: 'Waiting for payment', tone: 'grey' },
  PAID: { label: 'Paid', tone: 'green' },
  FAILED: { label: 'Declined', tone: 'red' },
  EXPIRED: { label: 'Expired', tone: 'amber' },
};

export const DEADLINE_NAME: Record<string, string> = {
  inspection: 'Inspection ends',
  partial_acceptance_response: 'Seller must answer the offer to pay part by',
  return_response: 'Seller must answer the return by',
  intra_party_mediation: 'Mediation ends',
  evidence_submission: 'Evidence due',
  extension_response: 'Buyer must answer the new due date by',
  dispute_opening: 'A dispute must be opened by',
  declined_refund: 'The dispute team may decide until',
};

export const ON_LAPSE: Record<string, string> = {
  delivery_accepted: 'If the buyer does not answer, the delivery is accepted and the funds are released.',
  partial_acceptance_accepted: 'If the seller does not answer, the offer is accepted: its amount goes to the seller and the rest back to the buyer.',
  return_approved: 'If the seller does not answer, the return is approved and the buyer is refunded.',
  escalated_to_evidence_submission: 'If no amount is agreed, the dispute moves to evidence submission.',
  forfeit_or_arbitration: 'A silent party forfeits; otherwise the dispute team arbitrates.',
  extension_declined: 'If the buyer does not answer, the request is declined and the due date stands.',
  dispute_opened: 'If neither party opens a dispute by then, the service opens it and mediation starts.',
  refunded_to_buyer: 'If the dispute team has not decided by then, everything held goes back to the buyer.',
};

/**
 * A log line as its reader would say it: the API's "intra-party mediation" is the mediation between the reader and
 * the other party, or between the buyer and the seller for anyone else.
 */
export function mediationWords(text: string, viewer?: 'buyer' | 'seller' | 'admin' | 'staff'): string {
  const between = viewer === 'buyer' ? 'you and the seller' : viewer === 'seller' ? 'you and the buyer' : 'the buyer and the seller';
  return text.replace(/intra-party mediation/gi, (found) => `${found[0] === 'I' ? 'M' : 'm'}ediation between ${between}`);
}

/** The same deadline told to the party whose answer it waits for: "you", not "the seller". */
const DEADLINE_FOR_PARTY: Record<string, { party: 'buyer' | 'seller'; name?: string; lapse?: string }> = {
  inspection: { party: 'buyer', lapse: 'If you do not answer, the delivery is accepted and the funds are released.' },
  partial_acceptance_response: {
    party: 'seller',
    name: 'You must answer the offer to pay part by',
    lapse: 'If you do not answer, the offer is accepted: its amount goes to you and the rest back to the buyer.',
  },
  return_response: { party: 'seller', name: 'You must answer the return by', lapse: 'If you do not answer, the return is approved and the buyer is refunded.' },
  extension_response: { party: 'buyer', name: 'You must answer the new due date by', lapse: 'If you do not answer, the request is declined and the due date stands.' },
};

export function deadlineWords(deadline: { name: string; on_lapse: string }, viewer: 'buyer' | 'seller' | 'staff' = 'staff'): { name: string; lapse: string | undefined } {
  const mine = DEADLINE_FOR_PARTY[deadline.name]?.party === viewer ? DEADLINE_FOR_PARTY[deadline.name] : undefined;
  return { name: mine?.name ?? DEADLINE_NAME[deadline.name] ?? deadline.name, lapse: mine?.lapse ?? ON_LAPSE[deadline.on_lapse] };
}

/** What the viewer is waiting to do, for the "needs your action" lists. */
export const ACTION_LABEL: Record<string, string> = {
  fund: 'Fund',
  deliver: 'Deliver',
  approve: 'Accept or reject',
  reject: 'Accept or reject',
  approve_return: 'Answer the return',
  disapprove_return: 'Answer the return',
  open_dispute: 'Open a dispute',
  approve_cancellation: 'Answer the cancellation request',
  decline_cancellation: 'Answer the cancellation request',
  approve_extension: 'Answer the new due date',
  decline_extension: 'Answer the new due date',
  accept_partial_acceptance: 'Answer the offer to pay part',
  decline_partial_acceptance: 'Answer the offer to pay part',
  add_dispute_amount: 'Propose an amount',
  accept_counter_offer: 'Answer the counter-offer',
  approve_dispute_amount: 'Answer the proposed amount',
  reject_dispute_amount: 'Answer the proposed amount',
  counter_offer: 'Answer the proposed amount',
  submit_evidence: 'Submit evidence',
};

export const labelOf = (map: Record<string, Label>, status: string): Label => map[status] ?? { label: status.replaceAll('_', ' ').toLowerCase(), tone: 'grey' };
