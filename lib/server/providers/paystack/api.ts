import 'server-only';
import { z } from 'zod';
import { ProviderError } from '../provider';

/**
 * A small client over Paystack's REST API (docs/decisions.md §12), written from Paystack's API reference:
 *   GET  /bank/resolve              https://paystack.com/docs/api/verification/#resolve-account
 *   POST /transferrecipient         https://paystack.com/docs/api/transfer-recipient/#create
 *   POST /transfer                  https://paystack.com/docs/api/transfer/#initiate
 *   GET  /transfer/verify/:reference https://paystack.com/docs/api/transfer/#verify
 *   POST /customer                  https://paystack.com/docs/api/customer/#create
 *   POST /dedicated_account         https://paystack.com/docs/api/dedicated-virtual-account/#create
 *   POST /transaction/initialize    https://paystack.com/docs/api/transaction/#initialize
 *   GET  /transaction/verify/:reference https://paystack.com/docs/api/transaction/#verify
 * (request and response bodies as published in github.com/PaystackOSS/doc-code-snippets, dist/api/…,
 * and github.com/PaystackOSS/openapi, dist/paystack.yaml). Every answer is `{status, message, data}`;
 * only the fields we use are parsed.
 */

export const PAYSTACK_BASE_URL = 'https://api.paystack.co';

/** Long enough for a slow bank behind /bank/resolve; short enough that a runner's lease (minutes) outlasts it. */
const TIMEOUT_MS = 15_000;

/** A refusal or failure with what Paystack said: its HTTP status and, when it gives one, its error `code`. */
export class PaystackError extends ProviderError {
  constructor(
    kind: ProviderError['kind'],
    message: string,
    readonly httpStatus: number | null,
    readonly code: string | null = null,
  ) {
    super(kind, message);
  }
}

/**
 * Paystack's answer to a second POST /transfer with a used reference. The errors page
 * (https://paystack.com/docs/api/errors/transfer/) describes it only as "This reference has already
 * been used on a prior transfer"; the wording of `message` is not published, so this matches loosely.
 * The adapter does not depend on it: after any refusal of a send it asks GET /transfer/verify.
 */
export function isDuplicateReference(error: unknown): boolean {
  if (!(error instanceof PaystackError) || error.kind !== 'REFUSED') return false;
  return error.code === 'duplicate_reference' || /duplicate|already (been )?used|already exists/i.test(error.message);
}

const errorBody = z.object({ message: z.string().optional(), code: z.string().optional() });

const resolved = z.object({ account_number: z.union([z.string(), z.number()]), account_name: z.string().min(1) });

const recipient = z.object({ recipient_code: z.string().min(1) });

/** Transfer statuses (https://paystack.com/docs/transfers/how-transfers-work/): pending, success, reversed, failed, otp, abandoned, blocked, rejected, received. */
const transfer = z.object({
  reference: z.string(),
  transfer_code: z.string().min(1),
  amount: z.number().int(),
  status: z.string(),
  gateway_response: z.string().nullish(),
});
export type PaystackTransfer = z.infer<typeof transfer>;

const customer = z.object({ customer_code: z.string().min(1) });

const dedicatedAccount = z.object({
  account_number: z.string().min(1),
  account_name: z.string(),
  bank: z.object({ name: z.string(), slug: z.string() }),
});

/** POST /transaction/initialize answers `data: {authorization_url, access_code, reference}`. */
const initialized = z.object({ authorization_url: z.url(), access_code: z.string().nullish(), reference: z.string() });

/**
 * GET /transaction/verify/:reference answers the transaction: `status` (abandoned, failed, ongoing, pending,
 * processing, queued, reversed, success), `amount` in kobo, `paid_at`, `channel`, `currency`, `gateway_response`.
 */
const paystackTransaction = z.object({
  status: z.string(),
  reference: z.string(),
  amount: z.number().int(),
  currency: z.string().nullish(),
  channel: z.string().nullish(),
  paid_at: z.string().nullish(),
  paidAt: z.string().nullish(),
  gateway_response: z.string().nullish(),
});
export type PaystackTransaction = z.infer<typeof paystackTransaction>;

type Options = { secretKey: string; baseUrl?: string };

export function paystackApi({ secretKey, baseUrl = PAYSTACK_BASE_URL }: Options) {
  const root = baseUrl.replace(/\/+$/, '');

  /** `until`: a request that would start after it is not made, and one in flight is waited for until then at most. */
  async function call<T>(method: 'GET' | 'POST', path: string, schema: z.ZodType<T>, body?: object, until?: Date): Promise<T> {
    const waitMs = Math.min(TIMEOUT_MS, until ? until.getTime() - Date.now() : TIMEOUT_MS);
    if (waitMs <= 0) throw new PaystackError('UNAVAILABLE', `No time was left to make ${method} ${path}: it is tried again later.`, null);
    let response: Response;
    try {
      response = await fetch(`${root}${path}`, {
        method,
        headers: { authorization: `Bearer ${secretKey}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(waitMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new PaystackError('UNAVAILABLE', timedOut ? `Paystack did not answer ${method} ${path} within ${waitMs / 1000} s.` : `Paystack could not be reached (${method} ${path}).`, null);
    }
    const text = await response.text().catch(() => '');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const said = errorBody.safeParse(json);
    const message = said.success && said.data.message ? said.data.message : `Paystack answered ${response.status}.`;
    const code = said.success ? (said.data.code ?? null) : null;
    if (response.status >= 500) throw new PaystackError('UNAVAILABLE', `Paystack failed (${response.status}): ${message}`, response.status, code);
    // A wrong key or a rate limit is ours to fix or wait out, not a refusal of this payout: tried again later.
    if (response.status === 401 || response.status === 429) throw new PaystackError('UNAVAILABLE', `Paystack refused our request (${response.status}): ${message}`, response.status, code);
    if (response.status >= 400) throw new PaystackError('REFUSED', message, response.status, code);
    const envelope = z.object({ status: z.boolean(), message: z.string().optional(), data: z.unknown() }).safeParse(json);
    if (!envelope.success) throw new PaystackError('UNAVAILABLE', `Paystack answered ${method} ${path} with a body we cannot read.`, response.status);
    if (!envelope.data.status) throw new PaystackError('REFUSED', message, response.status, code);
    const data = schema.safeParse(envelope.data.data);
    if (!data.success) throw new PaystackError('UNAVAILABLE', `Paystack answered ${method} ${path} without the fields we need.`, response.status);
    return data.data;
  }

  return {
    /** The account holder's name. Paystack answers an account it cannot resolve with a 4xx (404 in the reference). */
    async resolveAccount(accountNumber: string, bankCode: string): Promise<{ accountNumber: string; accountName: string }> {
      const query = new URLSearchParams({ account_number: accountNumber, bank_code: bankCode });
      try {
        const data = await call('GET', `/bank/resolve?${query}`, resolved);
        return { accountNumber: String(data.account_number), accountName: data.account_name };
      } catch (error) {
        // Both answers mean "no such account here"; a name enquiry changes nothing, so reading 422 the same way is safe.
        if (error instanceof PaystackError && (error.httpStatus === 404 || error.httpStatus === 422)) {
          throw new PaystackError('ACCOUNT_NOT_FOUND', error.message, error.httpStatus, error.code);
        }
        throw error;
      }
    },

    /** A `nuban` recipient; the reference says a duplicate account number returns the existing record. */
    async createTransferRecipient(a: { name: string; accountNumber: string; bankCode: string; until?: Date }): Promise<{ recipientCode: string }> {
      const data = await call('POST', '/transferrecipient', recipient, { type: 'nuban', name: a.name, account_number: a.accountNumber, bank_code: a.bankCode, currency: 'NGN' }, a.until);
      return { recipientCode: data.recipient_code };
    },

    /** `reference` must already be in Paystack's form (lowercase a-z, 0-9, - and _): see reference.ts. */
    initiateTransfer(a: { amountKobo: number; recipientCode: string; reference: string; reason: string; until?: Date }): Promise<PaystackTransfer> {
      return call('POST', '/transfer', transfer, { source: 'balance', amount: a.amountKobo, recipient: a.recipientCode, reference: a.reference, reason: a.reason, currency: 'NGN' }, a.until);
    },

    /** The transfer Paystack has under this reference, or null: the reference answers 404 "Transfer not found". */
    async verifyTransfer(reference: string): Promise<PaystackTransfer | null> {
      try {
        return await call('GET', `/transfer/verify/${encodeURIComponent(reference)}`, transfer);
      } catch (error) {
        if (error instanceof PaystackError && error.httpStatus === 404) return null;
        throw error;
      }
    },

    async createCustomer(a: { email: string; first_name: string; last_name: string; phone: string | null }): Promise<{ customerCode: string }> {
      const data = await call('POST', '/customer', customer, { email: a.email, first_name: a.first_name, last_name: a.last_name, ...(a.phone ? { phone: a.phone } : {}) });
      return { customerCode: data.customer_code };
    },

    /** A hosted payment page; `reference` must already be in Paystack's form (reference.ts). */
    async initializeTransaction(a: { email: string; amountKobo: number; reference: string; callbackUrl: string; metadata: Record<string, string> }): Promise<{ authorizationUrl: string }> {
      const data = await call('POST', '/transaction/initialize', initialized, { email: a.email, amount: a.amountKobo, currency: 'NGN', reference: a.reference, callback_url: a.callbackUrl, metadata: a.metadata });
      return { authorizationUrl: data.authorization_url };
    },

    /** The transaction Paystack has under this reference, or null when it has none (404). */
    async verifyTransaction(reference: string): Promise<PaystackTransaction | null> {
      try {
        return await call('GET', `/transaction/verify/${encodeURIComponent(reference)}`, paystackTransaction);
      } catch (error) {
        if (error instanceof PaystackError && error.httpStatus === 404) return null;
        throw error;
      }
    },

    /** `preferredBank` is a provider slug: the reference shows wema-bank, titan-paystack, access-bank, and test-bank in test mode. */
    async createDedicatedAccount(a: { customerCode: string; preferredBank: string }): Promise<{ accountNumber: string; accountName: string; bankName: string; bankSlug: string }> {
      const data = await call('POST', '/dedicated_account', dedicatedAccount, { customer: a.customerCode, preferred_bank: a.preferredBank });
      return { accountNumber: data.account_number, accountName: data.account_name, bankName: data.bank.name, bankSlug: data.bank.slug };
    },
  };
}

export type PaystackApi = ReturnType<typeof paystackApi>;
