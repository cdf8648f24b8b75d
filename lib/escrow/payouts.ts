/**
 * Payouts (docs/decisions.md §11): money out of a wallet to the user's saved bank account. A payout's status only
 * moves forward, and each move has one transfer, so the money is where the status says it is:
 *
 *   PENDING ─▶ PROCESSING ─▶ PAID ─▶ REVERSED
 *      │            │
 *      └────────────┴─▶ FAILED
 *
 * Created: wallet → payouts in flight. PAID: in flight → outside. FAILED: in flight → wallet.
 * REVERSED (the bank sent it back after paying): outside → wallet.
 */
import { balancedTransfer, type Transfer } from './ledger';
import type { Kobo } from './money';

export const PAYOUT_STATUSES = ['PENDING', 'PROCESSING', 'PAID', 'FAILED', 'REVERSED'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

const NEXT: Record<PayoutStatus, readonly PayoutStatus[]> = {
  PENDING: ['PROCESSING', 'PAID', 'FAILED'],
  PROCESSING: ['PAID', 'FAILED'],
  PAID: ['REVERSED'],
  FAILED: [],
  REVERSED: [],
};

/** Whether a payout in `from` may become `to`. PENDING may skip PROCESSING: a provider can answer a send with its outcome. */
export function canMovePayout(from: PayoutStatus, to: PayoutStatus): boolean {
  return NEXT[from].includes(to);
}

/** Money still on its way: counted as held, so an account with such a payout cannot be removed. */
export function isInFlight(status: PayoutStatus): boolean {
  return status === 'PENDING' || status === 'PROCESSING';
}

export type PayoutAccounts = { walletId: string; inFlightId: string; externalId: string };

/** The transfer that puts a payout's money where its new status says; none for PENDING → PROCESSING. */
export function payoutTransfer(from: PayoutStatus, to: PayoutStatus, amount: Kobo, accounts: PayoutAccounts): Transfer | null {
  if (!canMovePayout(from, to)) throw new Error(`a payout cannot move from ${from} to ${to}`);
  const move = (kind: 'payout_paid' | 'payout_returned', fromId: string, toId: string) =>
    balancedTransfer(kind, [
      { accountId: fromId, amount: -amount },
      { accountId: toId, amount },
    ]);
  switch (to) {
    case 'PROCESSING':
      return null;
    case 'PAID':
      return move('payout_paid', accounts.inFlightId, accounts.externalId);
    case 'FAILED':
      return move('payout_returned', accounts.inFlightId, accounts.walletId);
    case 'REVERSED':
      return move('payout_returned', accounts.externalId, accounts.walletId);
    case 'PENDING':
      throw new Error('a payout is created PENDING, never moved to it');
  }
}

/** The transfer that creates a payout: its amount leaves the wallet for the in-flight account. */
export function payoutCreation(amount: Kobo, accounts: PayoutAccounts): Transfer {
  return balancedTransfer('payout', [
    { accountId: accounts.walletId, amount: -amount },
    { accountId: accounts.inFlightId, amount },
  ]);
}

/** Our reference for a payout, which the provider receives: PO_ and 20 characters of [A-Z0-9] from `random` bytes. */
export function payoutReference(random: Uint8Array): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let code = '';
  for (let i = 0; i < 20; i++) code += alphabet[random[i % random.length]! % alphabet.length];
  return `PO_${code}`;
}

/** Sandbox payouts are paid this long after they are sent, on the client's clock (docs/decisions.md §11). */
export const SANDBOX_SETTLEMENT_MS = 60_000;
