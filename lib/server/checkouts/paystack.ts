import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { runAsOneStatement } from '../db/one-statement';
import { queryRows } from '../db/rows';
import { checkouts, clients, type ClientRow } from '../db/schema';
import { env } from '../env';
import { logBackgroundFailure } from '../db/availability';
import { providerEventWrite } from '../payouts/payouts';
import { liveProvider, providerNamed } from '../providers';
import type { CheckoutOutcome } from '../providers/provider';
import { checkoutRecord, type CheckoutRow } from './checkouts';
import { confirmCheckoutPayment, failCheckout } from './settle';

/**
 * What Paystack said of a checkout's payment (docs/decisions.md §16), from its charge.success webhook or from
 * GET /transaction/verify: paid credits once (a PAID checkout is left as it is), failed fails a PENDING one,
 * pending asks again later. A payment of another amount than asked is kept for reconciliation, never credited.
 */
export async function recordCheckoutOutcome(db: Db, client: ClientRow, checkout: CheckoutRow, outcome: CheckoutOutcome, wallNow: Date, source: 'webhook' | 'verify', data: unknown): Promise<string> {
  const now = new Date(wallNow.getTime() + client.clockOffsetMs);
  switch (outcome.status) {
    case 'pending':
      await db.update(checkouts).set({ verifyDueAt: new Date(wallNow.getTime() + env().ESCROW_CHECKOUT_VERIFY_AFTER_MS) }).where(sql`${checkouts.id} = ${checkout.id} and ${checkouts.status} = 'PENDING'`);
      return 'checkout still pending';
    case 'failed':
      return db.transaction(async (tx) => {
        const [locked] = await tx.select().from(checkouts).where(eq(checkouts.id, checkout.id)).for('update');
        if (!locked || locked.status !== 'PENDING') return `checkout is ${locked?.status}`;
        await failCheckout(tx, client, { checkoutId: checkout.id, reason: outcome.reason, now });
        return 'checkout failed';
      });
    case 'paid': {
      const note = { provider: 'paystack' as const, eventKey: `charge.success:${checkout.reference}`, data: { source, data } };
      if (outcome.amountKobo !== checkout.amountKobo) {
        await runAsOneStatement(db, 'provider_event', [
          providerEventWrite(
            { ...note, eventKey: `${note.eventKey}:amount:${outcome.amountKobo}` },
            { kind: 'checkout_paid', reference: checkout.reference, amountKobo: outcome.amountKobo, clientId: client.id, checkoutId: checkout.id, ledgerTransferId: null, now },
          ),
        ]);
        return 'paid amount differs from the checkout: kept for reconciliation';
      }
      const { row, credited } = await db.transaction((tx) => confirmCheckoutPayment(tx, client, { checkoutId: checkout.id, paidAt: outcome.paidAt, now, channel: outcome.channel, note }));
      return credited ? `checkout paid (applied ${checkoutRecord(row, now).applied})` : 'already credited';
    }
  }
}

/** charge.success for a reference of ours that is not a dedicated account's: the checkout it pays, or kept unmatched. */
export async function applyCheckoutWebhook(db: Db, event: { reference: string; amountKobo: number; paidAt: Date; channel: string | null }, json: unknown, wallNow: Date): Promise<string> {
  const [found] = await db.select({ checkout: checkouts, client: clients }).from(checkouts).innerJoin(clients, eq(clients.id, checkouts.clientId)).where(eq(checkouts.reference, event.reference));
  if (!found || found.checkout.provider !== 'paystack') {
    await runAsOneStatement(db, 'provider_event', [
      providerEventWrite({ provider: 'paystack', eventKey: `charge.success:${event.reference}`, data: json }, { kind: 'checkout_paid', reference: event.reference, amountKobo: event.amountKobo, ledgerTransferId: null, now: wallNow }),
    ]);
    return 'no checkout has this reference: kept for reconciliation';
  }
  return recordCheckoutOutcome(db, found.client, found.checkout, { status: 'paid', amountKobo: event.amountKobo, paidAt: event.paidAt, channel: event.channel }, wallNow, 'webhook', json);
}

/** Asks Paystack about one checkout (the buyer came back to our page, or it is still PENDING after a while). */
export async function verifyPaystackCheckout(db: Db, client: ClientRow, checkout: CheckoutRow, wallNow: Date): Promise<string> {
  const outcome = await providerNamed('paystack').checkCheckout(checkout.reference);
  return recordCheckoutOutcome(db, client, checkout, outcome, wallNow, 'verify', outcome);
}

/** The Paystack checkouts still PENDING whose time to ask has come, each leased before it is asked about. */
export async function verifyDuePaystackCheckouts(db: Db, wallNow: Date): Promise<void> {
  if (!liveProvider()) return;
  const lease = new Date(wallNow.getTime() + env().ESCROW_CHECKOUT_VERIFY_AFTER_MS).toISOString();
  const claimed = await queryRows<{ id: string }>(
    db,
    sql`update checkouts set verify_due_at = ${lease}::timestamptz
      where id in (select id from checkouts where status = 'PENDING' and provider = 'paystack' and verify_due_at <= ${wallNow.toISOString()}::timestamptz
        order by verify_due_at limit 50 for update skip locked)
      returning id`,
  );
  for (const { id } of claimed) {
    try {
      const [found] = await db.select({ checkout: checkouts, client: clients }).from(checkouts).innerJoin(clients, eq(clients.id, checkouts.clientId)).where(eq(checkouts.id, id));
      if (found) await verifyPaystackCheckout(db, found.client, found.checkout, wallNow);
    } catch (error) {
      logBackgroundFailure({ msg: 'checkout verify failed; asked again later', checkout: id }, error);
    }
  }
}
