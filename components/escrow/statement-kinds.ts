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
