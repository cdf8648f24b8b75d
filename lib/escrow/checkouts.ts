/**
 * Checkouts (docs/decisions.md §16): one hosted payment for one purpose, a milestone's funding or money into
 * the buyer's wallet. Its status only moves forward:
 *
 *   PENDING ─▶ PAID
 *      ├─────▶ FAILED ──▶ PAID (applied false)
 *      └─────▶ EXPIRED ─▶ PAID (applied false)
 *
 * A payment confirmed for a checkout that failed or expired still arrived, so it is credited; only its
 * purpose is not carried out. Pure: the caller passes the checkout, the milestone as it stands and `now`.
 */
import { balancedTransfer, milestoneFunding, type Transfer } from './ledger';
import { decideMilestoneAction, type MilestoneState, type TransactionEnding } from './milestone-machine';
import type { Kobo } from './money';

export const CHECKOUT_STATUSES = ['PENDING', 'PAID', 'FAILED', 'EXPIRED'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

export const CHECKOUT_PURPOSES = ['milestone', 'wallet'] as const;
export type CheckoutPurpose = (typeof CHECKOUT_PURPOSES)[number];

/** A checkout expires this long after creation, on the client's clock. */
export const CHECKOUT_EXPIRY_MS = 30 * 60_000;

const NEXT: Record<CheckoutStatus, readonly CheckoutStatus[]> = {
  PENDING: ['PAID', 'FAILED', 'EXPIRED'],
  FAILED: ['PAID'],
  EXPIRED: ['PAID'],
  PAID: [],
};

export function canMoveCheckout(from: CheckoutStatus, to: CheckoutStatus): boolean {
  return NEXT[from].includes(to);
}

export function checkoutExpiresAt(createdAt: Date): Date {
  return new Date(createdAt.getTime() + CHECKOUT_EXPIRY_MS);
}

export type CheckoutState = { status: CheckoutStatus; purpose: CheckoutPurpose; amount: Kobo; expiresAt: Date };

/** A PENDING checkout past its expiry is EXPIRED, whether or not the runner has written it yet. */
export function checkoutStatusAt(c: Pick<CheckoutState, 'status' | 'expiresAt'>, at: Date): CheckoutStatus {
  return c.status === 'PENDING' && at.getTime() >= c.expiresAt.getTime() ? 'EXPIRED' : c.status;
}

/** Whether the expiry runner turns it EXPIRED now (event `checkout.expired`). */
export function expiresNow(c: Pick<CheckoutState, 'status' | 'expiresAt'>, now: Date): boolean {
  return c.status === 'PENDING' && checkoutStatusAt(c, now) === 'EXPIRED';
}

type Refusal = { ok: false; code: 'INVALID_STATE'; message: string };

/** `POST /v1/test-helpers/checkouts/{id}/fail`, the sandbox's Decline, or the provider's failure. */
export function decideCheckoutFailure(c: Pick<CheckoutState, 'status' | 'expiresAt'>, now: Date): { ok: true; to: 'FAILED' } | Refusal {
  const status = checkoutStatusAt(c, now);
  if (status !== 'PENDING') return { ok: false, code: 'INVALID_STATE', message: `The checkout can no longer fail: it is ${status}.` };
  return { ok: true, to: 'FAILED' };
}

/** The milestone a checkout funds, as it stands when the payment is confirmed. */
export type CheckoutMilestone = {
  state: MilestoneState;
  siblings: readonly MilestoneState[];
  /** Set once the transaction was canceled or terminated. */
  ended: TransactionEnding | null;
  /** What funding moves now: the amount plus the buyer's fee share (fundingAmount). */
  fundingAmount: Kobo;
};

/**
 * Whether a milestone can be funded now, as `POST /v1/milestones/{id}/fund` judges it: at checkout creation
 * (refused: 409) and again at payment (refused: the money stays in the wallet, this is why).
 */
export function milestoneFundable(m: CheckoutMilestone): { ok: true } | { ok: false; reason: string } {
  if (m.ended) return { ok: false, reason: `The transaction has ended (status ${m.ended}).` };
  const decision = decideMilestoneAction('fund', m.state, m.siblings);
  return decision.ok ? { ok: true } : { ok: false, reason: decision.message };
}

export type CheckoutAccounts = { externalAccountId: string; buyerWalletId: string; escrowId: string | null };

export type PaymentDecision =
  /** Already PAID: the provider repeated itself; nothing is credited again. */
  | { ok: true; kind: 'already_paid' }
  | {
      ok: true;
      kind: 'paid';
      to: 'PAID';
      /** In order, in one database transaction: the credit from outside, then the milestone's funding if applied. */
      transfers: Transfer[];
      applied: boolean;
      notAppliedReason: string | null;
      /** Set when the milestone is funded: the caller moves it to this status as funding does. */
      milestoneTo: 'IN_PROGRESS' | null;
    };

/**
 * The provider confirmed the payment of `c`. `paidAt` is when the payment happened (the provider's time, or
 * now): one made before expiry is applied even when confirmed later. A reference credits once: the caller
 * looks the checkout up by reference under its row lock, and a PAID one is answered `already_paid`.
 */
export function decideCheckoutPayment(
  c: CheckoutState,
  paidAt: Date,
  accounts: CheckoutAccounts,
  milestone: CheckoutMilestone | null,
): PaymentDecision {
  if (c.status === 'PAID') return { ok: true, kind: 'already_paid' };
  const credit = balancedTransfer('checkout_payment', [
    { accountId: accounts.externalAccountId, amount: -c.amount },
    { accountId: accounts.buyerWalletId, amount: c.amount },
  ]);
  const paid = (applied: boolean, notAppliedReason: string | null, transfers: Transfer[] = [credit]) =>
    ({ ok: true, kind: 'paid', to: 'PAID', transfers, applied, notAppliedReason, milestoneTo: applied && milestone ? 'IN_PROGRESS' : null }) as const;
  const status = checkoutStatusAt(c, paidAt);
  if (status === 'FAILED') return paid(false, 'The payment arrived after the checkout had failed; the money is in the wallet.');
  if (status === 'EXPIRED') return paid(false, 'The payment arrived after the checkout had expired; the money is in the wallet.');
  if (c.purpose === 'wallet') return paid(true, null);
  if (!milestone || !accounts.escrowId) throw new Error('a milestone checkout is paid without its milestone');
  const fundable = milestoneFundable(milestone);
  if (!fundable.ok) return paid(false, fundable.reason);
  if (milestone.fundingAmount !== c.amount) {
    return paid(false, `The milestone now costs a different amount to fund than was paid; the money is in the wallet.`);
  }
  return paid(true, null, [credit, milestoneFunding({ buyerWalletId: accounts.buyerWalletId, escrowId: accounts.escrowId, amount: c.amount })]);
}

/** Our reference for a checkout, which the provider receives: CO_ and 20 characters of [A-Z0-9] from `random` bytes. */
export function checkoutReference(random: Uint8Array): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let code = '';
  for (let i = 0; i < 20; i++) code += alphabet[random[i % random.length]! % alphabet.length];
  return `CO_${code}`;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** `callback_url`: https only; plain http only with test keys, and only to this machine. */
export function callbackUrlAllowed(url: string, mode: 'test' | 'live'): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'https:') return true;
  return parsed.protocol === 'http:' && mode === 'test' && LOOPBACK.has(parsed.hostname);
}
