import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { fromPaystackReference, fromPaystackTransactionReference } from './reference';

/**
 * Paystack's webhooks (https://paystack.com/docs/payments/webhooks/): `x-paystack-signature` is the hex
 * HMAC-SHA512 of the body keyed with the secret key. It is computed here over the raw bytes as received:
 * the reference's Node example re-serialises the parsed body (JSON.stringify(req.body)), which only
 * matches when Paystack's serialisation happens to equal Node's.
 */
export function verifyPaystackSignature(rawBody: string, signature: string | null, secretKey: string): boolean {
  if (!signature || !secretKey || !/^[0-9a-f]{128}$/i.test(signature.trim())) return false;
  const expected = createHmac('sha512', secretKey).update(rawBody, 'utf8').digest();
  const given = Buffer.from(signature.trim(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export type PaystackEvent =
  | {
      kind: 'transfer';
      outcome: 'paid' | 'failed' | 'reversed';
      /** Ours (PO_…) when it is one of ours: see reference.ts. */
      reference: string;
      transferCode: string;
      amountKobo: number;
      reason?: string;
    }
  | { kind: 'funding'; reference: string; amountKobo: number; customerCode: string; paidAt: Date; accountNumber?: string }
  /** A checkout's payment (docs/decisions.md §16): charge.success on any channel but dedicated_nuban; `reference` is ours (CO_…) when it is one of ours. */
  | { kind: 'checkout'; reference: string; amountKobo: number; paidAt: Date; channel: string | null }
  | { kind: 'ignored'; event: string };

const envelope = z.object({ event: z.string(), data: z.record(z.string(), z.unknown()) });

const OUTCOMES = { 'transfer.success': 'paid', 'transfer.failed': 'failed', 'transfer.reversed': 'reversed' } as const;

/** The transfer object of transfer.success / transfer.failed / transfer.reversed, as in the webhooks page's samples. */
const transferData = z.object({
  reference: z.string().min(1),
  transfer_code: z.string().min(1),
  amount: z.number().int().positive(),
  currency: z.string().nullish(),
  // `reason` is the narration we sent ("Enjoy" in the transfer.failed sample), not why it failed;
  // gateway_response is the only place a cause may be given, and the samples leave it null.
  gateway_response: z.string().nullish(),
});

/**
 * charge.success for a dedicated account payment: https://paystack.com/docs/payments/dedicated-virtual-accounts/
 * shows `authorization.channel: "dedicated_nuban"` and the account paid into as
 * `authorization.receiver_bank_account_number`; the transaction fields (reference, amount, paid_at,
 * customer.customer_code) are those of the charge.success sample on the webhooks page.
 */
const chargeData = z.object({
  status: z.string(),
  reference: z.string().min(1),
  amount: z.number().int().positive(),
  currency: z.string().nullish(),
  channel: z.string().nullish(),
  paid_at: z.string().nullish(),
  paidAt: z.string().nullish(),
  customer: z.object({ customer_code: z.string().min(1) }).nullish(),
  authorization: z.object({ channel: z.string().nullish(), receiver_bank_account_number: z.string().nullish() }).nullish(),
});

/** Never throws: a body we cannot read, an event we do not handle or a shape we do not expect is `ignored`. */
export function parsePaystackEvent(json: unknown): PaystackEvent {
  const parsed = envelope.safeParse(json);
  if (!parsed.success) return { kind: 'ignored', event: '(unreadable)' };
  const { event, data } = parsed.data;
  if (event in OUTCOMES) {
    const transfer = transferData.safeParse(data);
    if (!transfer.success || (transfer.data.currency && transfer.data.currency !== 'NGN')) return { kind: 'ignored', event };
    const outcome = OUTCOMES[event as keyof typeof OUTCOMES];
    const reason = outcome !== 'paid' && transfer.data.gateway_response ? { reason: transfer.data.gateway_response } : {};
    return { kind: 'transfer', outcome, reference: fromPaystackReference(transfer.data.reference), transferCode: transfer.data.transfer_code, amountKobo: transfer.data.amount, ...reason };
  }
  if (event === 'charge.success') {
    const charge = chargeData.safeParse(data);
    if (!charge.success) return { kind: 'ignored', event };
    const c = charge.data;
    const dedicated = c.channel === 'dedicated_nuban' || c.authorization?.channel === 'dedicated_nuban';
    const paidAt = new Date(c.paid_at ?? c.paidAt ?? Number.NaN);
    if (c.status !== 'success' || (c.currency && c.currency !== 'NGN') || Number.isNaN(paidAt.getTime())) return { kind: 'ignored', event };
    if (!dedicated) return { kind: 'checkout', reference: fromPaystackTransactionReference(c.reference), amountKobo: c.amount, paidAt, channel: c.channel ?? c.authorization?.channel ?? null };
    const accountNumber = c.authorization?.receiver_bank_account_number;
    if (!c.customer) return { kind: 'ignored', event };
    return { kind: 'funding', reference: c.reference, amountKobo: c.amount, customerCode: c.customer.customer_code, paidAt, ...(accountNumber ? { accountNumber } : {}) };
  }
  return { kind: 'ignored', event };
}
