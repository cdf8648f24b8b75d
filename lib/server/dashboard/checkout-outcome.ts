import 'server-only';
import type { ActionResult, CheckoutOutcome, Transaction, Viewer } from '@/lib/contracts/dashboard';
import { escrowFor, type ApiResult } from '../escrow-client';
import { fromApi } from './action';
import type { Actor } from './actor';

const REFERENCE = /^CO_[A-Z0-9]{20}$/;
/** A buyer comes back within the checkout's 30 minutes, so its checkout is among its newest. */
const NEWEST = 100;

/**
 * What became of the checkout a buyer comes back from (`?reference=…` on its transaction's page, docs/decisions.md §16),
 * read from the API: only one of this buyer's own checkouts for this transaction is told; anything else is `missing`.
 * Null when there is nothing to tell this viewer.
 */
export async function checkoutOutcome(actor: Actor, transaction: Transaction, viewer: Viewer, reference: string | undefined): Promise<CheckoutOutcome | null> {
  if (reference === undefined || viewer !== 'buyer' || !('clientId' in actor)) return null;
  if (!REFERENCE.test(reference)) return { kind: 'missing' };
  const list = await escrowFor(actor).call('GET /checkouts', { query: { user_id: transaction.buyer.user_id, page: 1, limit: NEWEST } });
  const checkout = list.ok ? list.data.checkouts.find((c) => c.reference === reference && c.transaction_id === transaction.id) : undefined;
  if (!checkout) return { kind: 'missing' };
  return {
    kind: 'found',
    status: checkout.status,
    amount: checkout.amount,
    applied: checkout.applied,
    notAppliedReason: checkout.not_applied_reason,
    failureReason: checkout.failure_reason,
    milestoneTitle: transaction.milestones.find((m) => m.id === checkout.milestone_id)?.title ?? null,
  };
}

/**
 * The API's refusals of a card payment in the payer's words: the payment provider's set-up is the operator's, so its
 * server variables are not named to a customer.
 */
export function cardPaymentResult<T, U>(result: ApiResult<T>, data: (value: T) => U): ActionResult<U> {
  if (result.ok) return fromApi(result, data);
  switch (result.code) {
    case 'PROVIDER_NOT_CONFIGURED':
      return { ok: false, message: 'Card payments are not available yet: this marketplace has not set up its payment provider. Nothing was charged.' };
    case 'PROVIDER_UNAVAILABLE':
      return { ok: false, message: 'The payment provider could not be reached just now. Nothing was charged: try again in a few minutes.' };
    default:
      return fromApi(result);
  }
}
