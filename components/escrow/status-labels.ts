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

export const CHECKOUT_STATUS: Record<string, Label> = {
  PENDING: { label: 'Waiting for payment', tone: 'grey' },
  PAID: { label: 'Paid', tone: 'green' },
  FAILED: { label: 'Declined', tone: 'red' },
  EXPIRED: { label: 'Expired', tone: 'amber' },
};

export const labelOf = (map: Record<string, Label>, status: string): Label => map[status] ?? { label: status.replaceAll('_', ' ').toLowerCase(), tone: 'grey' };
