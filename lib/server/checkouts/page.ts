import 'server-only';
import { eq } from 'drizzle-orm';
import { checkoutStatusAt } from '@/lib/escrow/checkouts';
import { formatNaira } from '@/lib/escrow/money';
import { AppError } from '../app-error';
import type { Db } from '../db/client';
import { checkouts, clients, milestones, transactions, type ClientRow } from '../db/schema';
import { log } from '../logger';
import { liveProvider } from '../providers';
import type { CheckoutRow } from './checkouts';
import { verifyPaystackCheckout } from './paystack';
import { failSandboxCheckout, paySandboxCheckout } from './settle';

/** What the public payment page shows (docs/decisions.md §16): the merchant, what is paid for, the exact amount. */
export type CheckoutPageView = {
  reference: string;
  merchant: string;
  paysFor: string;
  amount: string;
  status: 'PENDING' | 'PAID' | 'FAILED' | 'EXPIRED';
  /** Only a PENDING sandbox checkout offers Pay and Decline. */
  payable: boolean;
  /** Where the browser goes once the outcome is known: callback_url?reference=…, or null to show it here. */
  returnTo: string | null;
  applied: boolean | null;
  notAppliedReason: string | null;
  failureReason: string | null;
};

const REFERENCE = /^CO_[A-Z0-9]{20}$/;

async function findByReference(db: Db, reference: string): Promise<{ checkout: CheckoutRow; client: ClientRow } | undefined> {
  if (!REFERENCE.test(reference)) return undefined;
  const [found] = await db.select({ checkout: checkouts, client: clients }).from(checkouts).innerJoin(clients, eq(clients.id, checkouts.clientId)).where(eq(checkouts.reference, reference));
  return found;
}

/** callback_url with `reference` added, as Paystack's redirect does. */
export function returnUrl(callbackUrl: string | null, reference: string): string | null {
  if (!callbackUrl) return null;
  const url = new URL(callbackUrl);
  url.searchParams.set('reference', reference);
  return url.toString();
}

/**
 * The page by the checkout's unguessable reference; undefined when there is none. A buyer back from Paystack
 * finds a checkout still PENDING asked about first, so the page (and callback_url) tells the outcome.
 */
export async function checkoutPageView(db: Db, reference: string, wallNow: Date): Promise<CheckoutPageView | undefined> {
  let found = await findByReference(db, reference);
  if (!found) return undefined;
  if (found.checkout.provider === 'paystack' && found.checkout.status === 'PENDING' && liveProvider()) {
    try {
      await verifyPaystackCheckout(db, found.client, found.checkout, wallNow);
      found = (await findByReference(db, reference)) ?? found;
    } catch (error) {
      log.error({ msg: 'checkout verify on return failed; the runner asks again', checkout: found.checkout.id, error });
    }
  }
  const { checkout, client } = found;
  const now = new Date(wallNow.getTime() + client.clockOffsetMs);
  const status = checkoutStatusAt(checkout, now);
  let paysFor = 'Money into your wallet';
  if (checkout.milestoneId && checkout.transactionId) {
    const [m] = await db.select({ title: milestones.title }).from(milestones).where(eq(milestones.id, checkout.milestoneId));
    const [t] = await db.select({ title: transactions.title }).from(transactions).where(eq(transactions.id, checkout.transactionId));
    paysFor = `Funding of “${m?.title ?? 'milestone'}” in “${t?.title ?? 'transaction'}”, held in escrow`;
  }
  return {
    reference: checkout.reference,
    merchant: client.name,
    paysFor,
    amount: formatNaira(checkout.amountKobo),
    status,
    payable: status === 'PENDING' && checkout.provider === 'sandbox' && client.mode === 'test',
    returnTo: returnUrl(checkout.callbackUrl, checkout.reference),
    applied: checkout.applied,
    notAppliedReason: checkout.notAppliedReason,
    failureReason: checkout.failureReason,
  };
}

/** The sandbox page's Pay or Decline: exactly the test helpers (settle.ts), for a PENDING sandbox checkout only. */
export async function answerSandboxCheckout(db: Db, reference: string, answer: 'pay' | 'decline', wallNow: Date): Promise<{ ok: true; returnTo: string | null } | { ok: false; message: string }> {
  const found = await findByReference(db, reference);
  if (!found) return { ok: false, message: 'There is no such payment.' };
  const { checkout, client } = found;
  const now = new Date(wallNow.getTime() + client.clockOffsetMs);
  try {
    if (answer === 'pay') await paySandboxCheckout(db, client, checkout.id, now);
    else await failSandboxCheckout(db, client, checkout.id, 'The buyer declined the payment (sandbox).', now);
  } catch (error) {
    if (error instanceof AppError) return { ok: false, message: error.message };
    throw error;
  }
  return { ok: true, returnTo: returnUrl(checkout.callbackUrl, checkout.reference) };
}
