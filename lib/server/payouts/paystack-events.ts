import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { walletFunding } from '@/lib/escrow/ledger';
import { formatNaira, koboToNaira } from '@/lib/escrow/money';
import { AppError } from '../app-error';
import type { Db } from '../db/client';
import { runAsOneStatement } from '../db/one-statement';
import { queryRows } from '../db/rows';
import { clients, payouts } from '../db/schema';
import { env } from '../env';
import { eventWrites } from '../events/record-event';
import { uuidv7 } from '../ids';
import { parsePaystackEvent, verifyPaystackSignature, type PaystackEvent } from '../providers/paystack/webhook';
import { loadWallet, walletRecord } from '../records/people';
import { lockLedgerAccounts, transferWrites } from '../engine/post-transfer';
import { applyCheckoutWebhook } from '../checkouts/paystack';
import { providerEventWrite } from './payouts';
import { recordPayoutOutcome } from './runner';

/**
 * POST /v1/providers/paystack/webhook (docs/decisions.md §12): a bad signature is 401 and changes nothing; a
 * repeated event changes nothing (each is kept once by its key); what matches nothing of ours is kept
 * for reconciliation.
 */
export async function receivePaystackWebhook(db: Db, rawBody: string, signature: string | null, wallNow: Date): Promise<string> {
  const { ESCROW_PAYMENT_PROVIDER, PAYSTACK_SECRET_KEY } = env();
  if (ESCROW_PAYMENT_PROVIDER !== 'paystack' || !PAYSTACK_SECRET_KEY) throw new AppError('NOT_FOUND', 'This server does not use Paystack (ESCROW_PAYMENT_PROVIDER).');
  if (!verifyPaystackSignature(rawBody, signature, PAYSTACK_SECRET_KEY)) throw new AppError('UNAUTHORIZED', 'The x-paystack-signature header does not match the body.');
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new AppError('INVALID_JSON', 'The request body is not valid JSON.');
  }
  const event = parsePaystackEvent(json);
  if (event.kind === 'transfer') return applyTransferEvent(db, event, json, wallNow);
  if (event.kind === 'funding') return applyFundingEvent(db, event, json, wallNow);
  if (event.kind === 'checkout') return applyCheckoutWebhook(db, event, json, wallNow);
  return `ignored ${event.event}`;
}

async function applyTransferEvent(db: Db, event: Extract<PaystackEvent, { kind: 'transfer' }>, json: unknown, now: Date): Promise<string> {
  const [found] = await db.select({ payout: payouts, client: clients }).from(payouts).innerJoin(clients, eq(clients.id, payouts.clientId)).where(eq(payouts.reference, event.reference));
  const outcomeKey = `${event.outcome}:${event.reference}`;
  if (!found || found.payout.provider !== 'paystack') {
    await runAsOneStatement(db, 'provider_event', [
      providerEventWrite({ provider: 'paystack', eventKey: outcomeKey, data: json }, { kind: `payout_${event.outcome}`, reference: event.reference, amountKobo: event.amountKobo, ledgerTransferId: null, now }),
    ]);
    return 'no payout has this reference: kept for reconciliation';
  }
  const { payout, client } = found;
  const outcome =
    event.outcome === 'paid'
      ? ({ status: 'paid', providerReference: event.transferCode } as const)
      : ({ status: event.outcome, reason: event.reason ?? `Paystack reported the transfer ${event.outcome}.`, providerReference: event.transferCode } as const);
  await recordPayoutOutcome(db, client, payout.id, payout.reference, outcome, now, 'webhook');
  // An outcome that contradicts where the payout already is (paid after it failed, say) is kept unmatched.
  const [after] = await db.select({ status: payouts.status }).from(payouts).where(eq(payouts.id, payout.id));
  const expected = { paid: ['PAID', 'REVERSED'], failed: ['FAILED'], reversed: ['REVERSED', 'FAILED'] }[event.outcome];
  if (after && !expected.includes(after.status)) {
    await runAsOneStatement(db, 'provider_event', [
      providerEventWrite(
        { provider: 'paystack', eventKey: `${outcomeKey}:contradicts:${after.status}`, data: json },
        { kind: `payout_${event.outcome}`, reference: event.reference, amountKobo: event.amountKobo, clientId: client.id, payoutId: payout.id, ledgerTransferId: null, now },
      ),
    ]);
    return `payout is ${after.status}: the ${event.outcome} outcome is kept for reconciliation`;
  }
  return `payout ${after?.status ?? payout.status}`;
}

/** A payment into a live wallet's dedicated account credits the wallet once per Paystack reference (wallet.funded). */
async function applyFundingEvent(db: Db, event: Extract<PaystackEvent, { kind: 'funding' }>, json: unknown, now: Date): Promise<string> {
  return db.transaction(async (tx) => {
    const [wallet] = await queryRows<{ id: string; client_id: string; user_id: string }>(
      tx,
      sql`select id, client_id, user_id from wallets where provider_account->>'customer_code' = ${event.customerCode} limit 1`,
    );
    const key = `charge:${event.reference}`;
    const transferId = uuidv7();
    const [client] = wallet ? await tx.select().from(clients).where(eq(clients.id, wallet.client_id)) : [];
    const claimed = await queryRows<{ id: string }>(
      tx,
      sql`insert into provider_events (id, provider, event_key, kind, reference, amount_kobo, client_id, wallet_id, ledger_transfer_id, data, received_at)
        values (${uuidv7()}::uuid, 'paystack', ${key}, 'funding', ${event.reference}, ${event.amountKobo}::bigint, ${wallet?.client_id ?? null}::uuid, ${wallet?.id ?? null}::uuid,
          ${wallet && client ? transferId : null}::uuid, ${JSON.stringify(json)}::jsonb, ${now.toISOString()}::timestamptz)
        on conflict (provider, event_key) do nothing returning id`,
    );
    if (claimed.length === 0) return 'already credited';
    if (!wallet || !client) return 'no wallet has this customer: kept for reconciliation';
    await lockLedgerAccounts(tx, [wallet.id]);
    const transfer = walletFunding({ externalAccountId: client.externalAccountId, walletId: wallet.id, amount: event.amountKobo, live: true });
    await runAsOneStatement(tx, 'live_funding', transferWrites({ id: transferId, clientId: client.id, transfer, description: `Paystack payment ${event.reference} of ${formatNaira(event.amountKobo)}`, now }));
    const credited = await loadWallet(tx, wallet.user_id);
    const record = { ...walletRecord(credited!.wallet, credited!.balanceKobo), user_id: wallet.user_id };
    await runAsOneStatement(
      tx,
      'record_event',
      eventWrites({ clientId: client.id, type: 'wallet.funded', data: { actor: 'provider', automatic: true, amount: koboToNaira(event.amountKobo), reference: event.reference, wallet: record }, now }).writes,
    );
    return 'wallet credited';
  });
}
