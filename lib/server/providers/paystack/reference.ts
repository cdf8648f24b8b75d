import 'server-only';

/**
 * Our payout references are `PO_` and [A-Z0-9] (docs/decisions.md §11). Paystack wants a transfer reference as "a
 * lowercase alphanumeric string with only -,_ symbols allowed" (POST /transfer, `reference`:
 * https://paystack.com/docs/api/transfer/#initiate) and keeps it lowercased: its bulk-transfer example
 * sends `ACV_2627…` and answers `acv_2627…`. So we send the lowercase form, which is one-to-one on our
 * alphabet, and read it back in capitals. Pure.
 */
export function toPaystackReference(ours: string): string {
  return ours.toLowerCase();
}

/** Ours again when it has our shape; any other reference (a transfer made on the dashboard, say) passes unchanged. */
export function fromPaystackReference(theirs: string): string {
  return /^po_[a-z0-9]+$/.test(theirs) ? theirs.toUpperCase() : theirs;
}

/**
 * A checkout's reference (CO_ and [A-Z0-9], docs/decisions.md §16) as POST /transaction/initialize takes it:
 * "Only -, ., = and alphanumeric characters allowed", so the underscore becomes a hyphen, one-to-one on our alphabet.
 */
export function toPaystackTransactionReference(ours: string): string {
  return ours.replace(/^CO_/, 'CO-');
}

export function fromPaystackTransactionReference(theirs: string): string {
  return /^CO-[A-Z0-9]+$/.test(theirs) ? theirs.replace(/^CO-/, 'CO_') : theirs;
}
