import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { PolledRunner } from '../background-poller';
import type { Db, DbOrTx } from '../db/client';
import { queryRows } from '../db/rows';
import { bankAccounts, clients, payouts, type ClientRow } from '../db/schema';
import { env } from '../env';
import { liveProvider, providerNamed } from '../providers';
import { ProviderError, type PayoutOutcome } from '../providers/provider';
import { openFundingAccounts } from './funding-accounts';
import { movePayout } from './payouts';
import { logBackgroundFailure } from '../db/availability';
import { log } from '../logger';


type Due = { id: string; client_id: string; reference: string };

/**
 * The payouts whose next step is due: sandbox payouts to pay on their client's clock, and a real
 * provider's payouts to send (PENDING) or ask about (PROCESSING) on the wall clock.
 */
async function duePayouts(db: DbOrTx, a: { wallNow: Date; clientId?: string; provider: 'sandbox' | 'paystack'; limit: number }): Promise<Due[]> {
  const clock = a.provider === 'sandbox' ? sql`${a.wallNow.toISOString()}::timestamptz + c.clock_offset_ms * interval '1 millisecond'` : sql`${a.wallNow.toISOString()}::timestamptz`;
  return queryRows<Due>(
    db,
    sql`select p.id, p.client_id, p.reference from payouts p join clients c on c.id = p.client_id
      where p.status in ('PENDING', 'PROCESSING') and p.due_at <= ${clock} and p.provider = ${a.provider}
        ${a.clientId ? sql`and p.client_id = ${a.clientId}::uuid` : sql``}
      order by p.due_at limit ${a.limit}`,
  );
}

/**
 * Pays the sandbox payouts whose minute on their client's clock has passed (docs/decisions.md §11). Each in its
 * own database transaction, or in the caller's (a test clock's move settles what it passes).
 */
export async function settleSandboxPayouts(db: DbOrTx, a: { wallNow: Date; clientId?: string }): Promise<number> {
  let paid = 0;
  for (const due of await duePayouts(db, { ...a, provider: 'sandbox', limit: 500 })) {
    paid += await db.transaction(async (tx) => {
      const [client] = await tx.select().from(clients).where(eq(clients.id, due.client_id));
      if (!client) return 0;
      const now = new Date(a.wallNow.getTime() + client.clockOffsetMs);
      const moved = await movePayout(tx, client, { payoutId: due.id, to: 'PAID', now, note: { provider: 'sandbox', eventKey: `paid:${due.reference}`, data: { settled: 'sandbox' } } });
      return moved ? 1 : 0;
    });
  }
  return paid;
}

/** Records what the provider said of a payout; a payout already past that outcome stays as it is. */
export async function recordPayoutOutcome(db: DbOrTx, client: ClientRow, payoutId: string, reference: string, outcome: PayoutOutcome, now: Date, source: string): Promise<void> {
  const note = (what: string) => ({ provider: 'paystack' as const, eventKey: `${what}:${reference}`, data: { source, outcome } });
  await db.transaction(async (tx) => {
    switch (outcome.status) {
      case 'unknown':
        return;
      case 'processing': {
        const dueAt = new Date(now.getTime() + env().ESCROW_PAYOUT_REQUERY_AFTER_MS);
        const moved = await movePayout(tx, client, { payoutId, to: 'PROCESSING', now, providerReference: outcome.providerReference, dueAt });
        // Already with the provider and still processing there: ask again later.
        if (!moved) await tx.update(payouts).set({ dueAt }).where(and(eq(payouts.id, payoutId), eq(payouts.status, 'PROCESSING')));
        return;
      }
      case 'paid':
        await movePayout(tx, client, { payoutId, to: 'PAID', now, providerReference: outcome.providerReference, note: note('paid') });
        return;
      case 'failed':
        await movePayout(tx, client, { payoutId, to: 'FAILED', now, reason: outcome.reason, providerReference: outcome.providerReference, note: note('failed') });
        return;
      case 'reversed':
        // After PAID, the bank sent it back. Before it, Paystack uses `reversed` for a transfer it could not
        // process and whose amount it returned (its transfer statuses): that payout failed.
        if (!(await movePayout(tx, client, { payoutId, to: 'REVERSED', now, reason: outcome.reason, note: note('reversed') }))) {
          await movePayout(tx, client, { payoutId, to: 'FAILED', now, reason: outcome.reason, providerReference: outcome.providerReference, note: note('reversed') });
        }
        return;
    }
  });
}

/**
 * Sends a PENDING payout to its provider, or asks about one that is PROCESSING. A send is marked in its
 * own committed transaction before it goes out (sent_at), and a payout marked so is asked about before it
 * is sent again: a server that died between the provider's receiving it and our recording the answer
 * never has it paid twice. The lease on due_at keeps other runners off it meanwhile; it runs from the
 * claim, not from the pass's start, and the send neither starts nor is waited for past it, so no other
 * runner asks about a payout (and, hearing of none, sends it again) while this one may still send it.
 */
async function advancePaystackPayout(db: Db, due: Due, wallNow: Date): Promise<void> {
  const claimedAt = new Date();
  const leaseEnds = new Date(claimedAt.getTime() + env().ESCROW_PAYOUT_REQUERY_AFTER_MS);
  const claimed = await db.transaction(async (tx) => {
    const [row] = await queryRows<{ id: string }>(tx, sql`select id from payouts where id = ${due.id}::uuid and due_at <= ${wallNow.toISOString()}::timestamptz for update skip locked`);
    if (!row) return undefined;
    const [payout] = await tx.select().from(payouts).where(eq(payouts.id, due.id));
    const [client] = await tx.select().from(clients).where(eq(clients.id, due.client_id));
    if (!payout || !client || (payout.status !== 'PENDING' && payout.status !== 'PROCESSING')) return undefined;
    const [account] = await tx.select().from(bankAccounts).where(eq(bankAccounts.id, payout.bankAccountId));
    await tx
      .update(payouts)
      // Held for the requery interval: if this server dies mid-send, the next look asks the provider first.
      .set({ sentAt: payout.sentAt ?? claimedAt, dueAt: leaseEnds })
      .where(eq(payouts.id, payout.id));
    return { payout, client, recipientCode: account?.pgATransferRecipient ?? null };
  });
  if (!claimed) return;
  const { payout, client } = claimed;
  const provider = providerNamed('paystack');
  const asked = payout.status === 'PROCESSING' || payout.sentAt !== null ? await provider.checkPayout(payout.reference) : ({ status: 'unknown' } as const);
  if (asked.status !== 'unknown') return recordPayoutOutcome(db, client, payout.id, payout.reference, asked, new Date(), 'requery');
  if (payout.status === 'PROCESSING') {
    // The provider has no record of a payout it once took: it is not coming; put the money back.
    return recordPayoutOutcome(db, client, payout.id, payout.reference, { status: 'failed', reason: 'The payment provider has no record of this transfer.' }, new Date(), 'requery');
  }
  try {
    const sent = await provider.sendPayout({
      reference: payout.reference,
      amountKobo: payout.amountKobo,
      reason: `Payout ${payout.reference}`,
      account: { accountNumber: payout.accountNumber, accountName: payout.accountName, bankCode: payout.bankCode, recipientCode: claimed.recipientCode },
      sendBy: leaseEnds,
    });
    if (sent.recipientCode && sent.recipientCode !== claimed.recipientCode) {
      await db.update(bankAccounts).set({ pgATransferRecipient: sent.recipientCode }).where(eq(bankAccounts.id, payout.bankAccountId));
    }
    const outcome = sent.outcome.status === 'processing' ? { ...sent.outcome, providerReference: sent.providerReference } : sent.outcome;
    await recordPayoutOutcome(db, client, payout.id, payout.reference, outcome, new Date(), 'send');
  } catch (error) {
    // A refusal is final: the money goes back. Anything else is tried again once the lease runs out.
    if (error instanceof ProviderError && !error.retryable) {
      await recordPayoutOutcome(db, client, payout.id, payout.reference, { status: 'failed', reason: error.message }, new Date(), 'send');
      return;
    }
    // A server held up past its lease (a busy start, a pause) stops there: the next look asks Paystack first.
    if (error instanceof ProviderError && Date.now() >= leaseEnds.getTime()) {
      log.warn({ msg: 'payout send outlived its lease; asked about on the next look', payout: payout.id, reason: error.message });
      return;
    }
    throw error;
  }
}

export async function advancePaystackPayouts(db: Db, wallNow: Date): Promise<void> {
  // Payouts sent through Paystack wait, untouched, for a server configured with it again.
  if (!liveProvider()) return;
  for (const due of await duePayouts(db, { wallNow, provider: 'paystack', limit: 50 })) {
    try {
      await advancePaystackPayout(db, due, wallNow);
    } catch (error) {
      logBackgroundFailure({ msg: 'payout step failed; retried later', payout: due.id }, error);
    }
  }
}

/** In the background of this server process: sandbox settlements, the live provider's sends and requeries, and live funding accounts. */
export const payoutRunner: PolledRunner = {
  name: 'payout runner',
  intervalMs: (settings) => settings.ESCROW_PAYOUT_POLL_MS,
  runOnce: async ({ db }) => {
    const wallNow = new Date();
    await settleSandboxPayouts(db, { wallNow });
    await advancePaystackPayouts(db, wallNow);
    await openFundingAccounts(db);
  },
};
