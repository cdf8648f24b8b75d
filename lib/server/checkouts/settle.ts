import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { checkoutExpiryDeadline } from '@/lib/escrow/deadline-events';
import { canMoveCheckout, decideCheckoutFailure, decideCheckoutPayment, expiresNow, checkoutStatusAt } from '@/lib/escrow/checkouts';
import { formatNaira } from '@/lib/escrow/money';
import { AppError, invalidState, notFound } from '../app-error';
import type { Db, DbOrTx, Tx } from '../db/client';
import { runAsOneStatement, type Write } from '../db/one-statement';
import { queryRows } from '../db/rows';
import { checkouts, clients, type ClientRow } from '../db/schema';
import { recordDeadlineEvent } from '../events/deadline-events';
import { eventWrites } from '../events/record-event';
import { uuidv7 } from '../ids';
import { providerEventWrite, type ProviderNote } from '../payouts/payouts';
import { applyMilestoneAction } from '../engine/milestone-action';
import { fundFromWallet } from '../engine/milestone-funding';
import { lockLedgerAccounts, transferWrites } from '../engine/post-transfer';
import { lockMilestoneAndAccounts } from '../engine/transaction-lock';
import { checkoutMilestoneOf, checkoutRecord, type CheckoutRow } from './checkouts';

/**
 * Locks a checkout after its transaction's row, the order every writer of both takes (a test clock's move settles a
 * transaction's lapses, then expires its checkouts): a payment that took the checkout first could deadlock with it.
 * A checkout's transaction never changes, so the unlocked read that names it is safe.
 */
async function lockCheckout(tx: Tx, clientId: string, checkoutId: string): Promise<CheckoutRow | undefined> {
  const mine = and(eq(checkouts.id, checkoutId), eq(checkouts.clientId, clientId));
  const [named] = await tx.select({ transactionId: checkouts.transactionId }).from(checkouts).where(mine);
  if (!named) return undefined;
  if (named.transactionId) await tx.execute(sql`select id from transactions where id = ${named.transactionId} for update`);
  return (await tx.select().from(checkouts).where(mine).for('update'))[0];
}

/**
 * The provider confirmed a checkout's payment (docs/decisions.md §16), in the caller's database transaction: the
 * credit of the buyer's wallet from outside, then, when the milestone can still be funded, its funding from the
 * wallet exactly as POST /v1/milestones/{id}/fund does. A PAID checkout is left as it is, so a reference credits
 * once however often the provider repeats itself. `paidAt`: when the payment happened, which judges expiry.
 */
export async function confirmCheckoutPayment(
  tx: Tx,
  client: ClientRow,
  a: { checkoutId: string; paidAt: Date; now: Date; channel: string | null; note: ProviderNote },
): Promise<{ row: CheckoutRow; credited: boolean }> {
  const checkout = await lockCheckout(tx, client.id, a.checkoutId);
  if (!checkout) throw notFound('Checkout', a.checkoutId);
  // The transaction is locked (its lapses settled) before any account, in the order every writer takes them.
  const locked = checkout.milestoneId ? await lockMilestoneAndAccounts(tx, client, checkout.milestoneId, a.now, ['buyer_wallet', 'escrow']) : undefined;
  const milestone = locked ? checkoutMilestoneOf(locked.graph, checkout.milestoneId!) : null;
  const escrowId = locked ? locked.graph.milestones.find((e) => e.milestone.id === checkout.milestoneId)!.escrow.id : null;
  const decision = decideCheckoutPayment({ ...checkout, amount: checkout.amountKobo }, a.paidAt, { externalAccountId: client.externalAccountId, buyerWalletId: checkout.walletId, escrowId }, milestone);
  if (decision.kind === 'already_paid') return { row: checkout, credited: false };

  const [credit] = decision.transfers;
  const balances = locked?.balances ?? new Map<string, number>();
  // The escrow too, so that its party account is taken before the house account, as every writer takes them.
  const accounts = [...credit!.postings.map((p) => p.accountId), ...(escrowId ? [escrowId] : [])];
  for (const [id, balance] of await lockLedgerAccounts(tx, accounts)) balances.set(id, balance);
  const row: CheckoutRow = {
    ...checkout,
    status: 'PAID',
    applied: decision.applied,
    notAppliedReason: decision.notAppliedReason,
    channel: a.channel ?? checkout.channel,
    paidAt: a.now,
    updatedAt: a.now,
    verifyDueAt: null,
    // A checkout the runner had not yet written EXPIRED keeps when it expired.
    expiredAt: checkout.expiredAt ?? (checkoutStatusAt(checkout, a.paidAt) === 'EXPIRED' ? checkout.expiresAt : null),
  };
  const transferId = uuidv7();
  const writes: Write[] = [
    ...transferWrites({ id: transferId, clientId: client.id, transfer: credit!, checkoutId: checkout.id, description: `Card payment ${checkout.reference} of ${formatNaira(checkout.amountKobo)}`, now: a.now }),
    tx
      .update(checkouts)
      .set({ status: row.status, applied: row.applied, notAppliedReason: row.notAppliedReason, channel: row.channel, paidAt: row.paidAt, updatedAt: row.updatedAt, verifyDueAt: null, expiredAt: row.expiredAt })
      .where(eq(checkouts.id, checkout.id)),
    providerEventWrite(a.note, { kind: 'checkout_paid', reference: checkout.reference, amountKobo: checkout.amountKobo, clientId: client.id, walletId: checkout.walletId, checkoutId: checkout.id, ledgerTransferId: transferId, now: a.now }),
    ...eventWrites({ clientId: client.id, type: 'checkout.paid', transactionId: checkout.transactionId ?? undefined, milestoneId: checkout.milestoneId ?? undefined, data: { actor: 'provider', automatic: true, checkout: checkoutRecord(row, a.now) }, now: a.now }).writes,
  ];
  await runAsOneStatement(tx, 'checkout_paid', writes);
  const wallet = checkout.walletId;
  if (decision.applied && locked && checkout.milestoneId) {
    // The wallet's balance now holds the credit: funding judges it as it stands.
    balances.set(wallet, (balances.get(wallet) ?? 0) + checkout.amountKobo);
    await applyMilestoneAction(tx, { client, graph: locked.graph, balances, milestoneId: checkout.milestoneId, action: 'fund', role: 'buyer', now: a.now, apply: fundFromWallet('checkout') });
  }
  return { row, credited: true };
}

/** A checkout's payment failed (the sandbox's Decline or its helper, or the provider's word): PENDING only. */
export async function failCheckout(tx: Tx, client: ClientRow, a: { checkoutId: string; reason: string; now: Date }): Promise<CheckoutRow> {
  const checkout = await lockCheckout(tx, client.id, a.checkoutId);
  if (!checkout) throw notFound('Checkout', a.checkoutId);
  const decision = decideCheckoutFailure(checkout, a.now);
  if (!decision.ok) throw invalidState(`Checkout ${checkout.reference}: ${decision.message}`);
  const row: CheckoutRow = { ...checkout, status: 'FAILED', failureReason: a.reason, failedAt: a.now, updatedAt: a.now, verifyDueAt: null };
  await runAsOneStatement(tx, 'checkout_failed', [
    tx.update(checkouts).set({ status: row.status, failureReason: row.failureReason, failedAt: row.failedAt, updatedAt: row.updatedAt, verifyDueAt: null }).where(eq(checkouts.id, checkout.id)),
    ...eventWrites({ clientId: client.id, type: 'checkout.failed', transactionId: checkout.transactionId ?? undefined, milestoneId: checkout.milestoneId ?? undefined, data: { actor: 'provider', automatic: true, checkout: checkoutRecord(row, a.now) }, now: a.now }).writes,
  ]);
  return row;
}

/**
 * Writes EXPIRED on the PENDING checkouts past their expiry on their client's clock (checkout.expired), each in
 * its own database transaction or in the caller's (a test clock's move expires what it passes).
 */
export async function expireDueCheckouts(db: DbOrTx, a: { wallNow: Date; clientId?: string }): Promise<number> {
  const due = await queryRows<{ id: string; client_id: string }>(
    db,
    sql`select k.id, k.client_id from checkouts k join clients c on c.id = k.client_id
      where k.status = 'PENDING' and k.expires_at <= ${a.wallNow.toISOString()}::timestamptz + c.clock_offset_ms * interval '1 millisecond'
        ${a.clientId ? sql`and k.client_id = ${a.clientId}::uuid` : sql``}
      order by k.expires_at limit 500`,
  );
  let expired = 0;
  for (const { id, client_id } of due) {
    expired += await db.transaction(async (tx) => {
      const [client] = await tx.select().from(clients).where(eq(clients.id, client_id));
      // With the transaction's row lock, which keeps its event sequence whole (record-event.ts).
      const checkout = client && (await lockCheckout(tx, client.id, id));
      const now = client && new Date(a.wallNow.getTime() + client.clockOffsetMs);
      if (!client || !checkout || !now || !expiresNow(checkout, now) || !canMoveCheckout(checkout.status, 'EXPIRED')) return 0;
      const row: CheckoutRow = { ...checkout, status: 'EXPIRED', expiredAt: checkout.expiresAt, updatedAt: now, verifyDueAt: null };
      // Its own statement, right before checkout.expired: a statement holds one event of a transaction.
      const deadline = checkoutExpiryDeadline({ id: checkout.id, transactionId: checkout.transactionId, expiresAt: checkout.expiresAt });
      await recordDeadlineEvent(tx, client.id, 'deadline.lapsed', deadline, { milestoneId: checkout.milestoneId ?? undefined }, now);
      await runAsOneStatement(tx, 'checkout_expired', [
        tx.update(checkouts).set({ status: row.status, expiredAt: row.expiredAt, updatedAt: now, verifyDueAt: null }).where(eq(checkouts.id, id)),
        ...eventWrites({ clientId: client.id, type: 'checkout.expired', transactionId: checkout.transactionId ?? undefined, milestoneId: checkout.milestoneId ?? undefined, data: { actor: 'system', automatic: true, checkout: checkoutRecord(row, now) }, now }).writes,
      ]);
      return 1;
    });
  }
  return expired;
}

/** The sandbox's Pay (page and test helper, docs/decisions.md §16): a PENDING sandbox checkout only, else 409. */
export async function paySandboxCheckout(db: Db, client: ClientRow, checkoutId: string, now: Date): Promise<CheckoutRow> {
  return db.transaction(async (tx) => {
    const checkout = await pendingSandboxCheckout(tx, client, checkoutId, now, 'paid');
    const { row } = await confirmCheckoutPayment(tx, client, { checkoutId: checkout.id, paidAt: now, now, channel: 'card', note: { provider: 'sandbox', eventKey: `paid:${checkout.reference}`, data: { helper: 'pay' } } });
    return row;
  });
}

/** The sandbox's Decline (page and test helper): a PENDING sandbox checkout only, else 409. */
export async function failSandboxCheckout(db: Db, client: ClientRow, checkoutId: string, reason: string | undefined, now: Date): Promise<CheckoutRow> {
  return db.transaction(async (tx) => {
    const checkout = await pendingSandboxCheckout(tx, client, checkoutId, now, 'failed');
    return failCheckout(tx, client, { checkoutId: checkout.id, reason: reason ?? 'The buyer declined the payment (sandbox).', now });
  });
}

async function pendingSandboxCheckout(tx: Tx, client: ClientRow, checkoutId: string, now: Date, to: 'paid' | 'failed'): Promise<CheckoutRow> {
  if (client.mode !== 'test') throw new AppError('LIVE_MODE_FORBIDDEN', 'Checkout test helpers work only with test keys.');
  const checkout = await lockCheckout(tx, client.id, checkoutId);
  if (!checkout) throw notFound('Checkout', checkoutId);
  const status = checkoutStatusAt(checkout, now);
  if (status !== 'PENDING' || checkout.provider !== 'sandbox') throw invalidState(`Checkout ${checkout.reference} is ${status}: only a PENDING checkout can be ${to}.`);
  return checkout;
}
