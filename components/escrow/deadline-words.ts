/** A deadline's name and what happens when it lapses, in a person's words. */
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
