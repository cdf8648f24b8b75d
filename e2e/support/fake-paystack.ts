/**
 * A Paystack-compatible HTTP server for tests (docs/decisions.md §12). Tests start it on 127.0.0.1 in their own
 * process; the server under test reaches it over HTTP through PAYSTACK_BASE_URL, and it sends signed
 * webhooks back. Written from Paystack's reference, the same pages the adapter cites:
 *   GET  /bank/resolve               https://paystack.com/docs/api/verification/#resolve-account
 *   POST /transferrecipient          https://paystack.com/docs/api/transfer-recipient/#create
 *   POST /transfer                   https://paystack.com/docs/api/transfer/#initiate
 *   GET  /transfer/verify/:reference https://paystack.com/docs/api/transfer/#verify
 *   POST /customer                   https://paystack.com/docs/api/customer/#create
 *   POST /dedicated_account          https://paystack.com/docs/api/dedicated-virtual-account/#create
 *   POST /transaction/initialize     https://paystack.com/docs/api/transaction/#initialize
 *   GET  /transaction/verify/:reference https://paystack.com/docs/payments/verify-payments/
 *   GET  /checkout/:access_code      the hosted payment page (Pay / Decline), then back to callback_url?trxref&reference
 *   webhooks                         https://paystack.com/docs/payments/webhooks/
 * Response bodies follow the samples in github.com/PaystackOSS/doc-code-snippets (dist/api/…/response.json,
 * dist/doc/payments/webhooks/events.js) and the schemas of github.com/PaystackOSS/openapi.
 *
 * Where the reference is silent the fake says so beside the behaviour it chose.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { findBank } from '../../lib/escrow/banks';

export type TransferStatus = 'pending' | 'success' | 'failed' | 'reversed';
/** What happens to a new transfer: `pending` leaves it so until completeTransfer(); a reason may come with `failed`. */
export type TransferOutcome = 'success' | 'failed' | 'pending' | { status: 'failed'; reason: string };
/** `lose`: the webhook is not sent (GET /transfer/verify still tells the outcome); `twice`: the same signed body twice. */
export type WebhookDelivery = 'send' | 'lose' | 'twice';

export type FakeTransfer = {
  id: number;
  transferCode: string;
  /** As Paystack keeps it: lowercased. */
  reference: string;
  amountKobo: number;
  currency: string;
  reason: string;
  recipientCode: string;
  status: TransferStatus;
  gatewayResponse: string | null;
  createdAt: string;
  updatedAt: string;
};
export type FakeRecipient = { id: number; recipientCode: string; name: string; accountNumber: string; bankCode: string; bankName: string; createdAt: string };
export type FakeCustomer = { id: number; customerCode: string; email: string; firstName: string | null; lastName: string | null; phone: string | null; createdAt: string };
export type FakeDedicatedAccount = { id: number; accountNumber: string; accountName: string; bank: { name: string; id: number; slug: string }; customerCode: string; createdAt: string };
/**
 * A transaction made by POST /transaction/initialize (https://paystack.com/docs/api/transaction/#initialize). Its
 * status is `abandoned` until the hosted page pays (`success`) or declines (`failed`), as GET /transaction/verify shows.
 */
export type FakeTransaction = {
  id: number;
  reference: string;
  accessCode: string;
  amount: number;
  email: string;
  callbackUrl: string | null;
  metadata: unknown;
  status: 'abandoned' | 'success' | 'failed';
  gatewayResponse: string | null;
  paidAt: string | null;
  channel: string | null;
  createdAt: string;
};
export type RecordedRequest = { method: string; path: string; query: Record<string, string>; body: unknown; status?: number };
export type SentWebhook = { event: string; reference: string; body: string; signature: string; answered: number | 'lost' | 'unreachable' };

export type TransferHold = {
  /** The first POST /transfer that arrived while held: Paystack has the transfer, the caller has no answer yet. */
  transferReceived: Promise<FakeTransfer>;
  /** Answers every held request (a caller that died meanwhile gets nothing) and stops holding. */
  release(): void;
};

export type FakePaystack = {
  url: string;
  secretKey: string;
  requests: RecordedRequest[];
  webhooks: SentWebhook[];
  setWebhookUrl(url: string | null): void;
  transferOutcome(outcome: TransferOutcome | ((transfer: FakeTransfer) => TransferOutcome)): void;
  webhookDelivery(mode: WebhookDelivery, reference?: string): void;
  holdTransfers(): TransferHold;
  /** Each POST /transfer reaches Paystack this long after it arrives here, as on a slow network or from a stalled sender. */
  delayTransfers(ms: number): void;
  completeTransfer(reference: string, outcome: 'success' | 'failed', reason?: string): Promise<void>;
  reverse(reference: string, reason?: string): Promise<void>;
  creditDedicatedAccount(a: { accountNumber?: string; customerCode?: string; amountKobo: number; reference?: string; times?: number }): Promise<{ reference: string; answered: SentWebhook['answered'][] }>;
  sendEvent(event: object): Promise<SentWebhook['answered']>;
  sendForged(event: object): Promise<SentWebhook['answered']>;
  /** What the hosted page's Pay does: the transaction succeeds and a signed charge.success goes out (unless lost). */
  payTransaction(reference: string, delivery?: WebhookDelivery, channel?: string, paidAt?: string): Promise<SentWebhook['answered'][]>;
  /** The charge.success a payment of this transaction sends, signed or not: for a forged or repeated one. */
  chargeSuccessEvent(reference: string): object;
  transaction(reference: string): FakeTransaction | undefined;
  transactions: FakeTransaction[];
  setAccountName(accountNumber: string, name: string): void;
  unknownAccount(accountNumber: string): void;
  transfer(reference: string): FakeTransfer | undefined;
  transfers: FakeTransfer[];
  recipients: FakeRecipient[];
  customers: FakeCustomer[];
  dedicatedAccounts: FakeDedicatedAccount[];
  /** Resolves once every scheduled outcome and webhook send so far has finished. */
  idle(): Promise<void>;
  close(): Promise<void>;
};

type Options = { secretKey?: string; webhookUrl?: string | null; outcomeDelayMs?: number; port?: number };

const FIRST = ['ADAORA', 'BELLO', 'CHIAMAKA', 'DAYO', 'EBUKA', 'FOLAKE', 'GBENGA', 'HAUWA', 'IKENNA', 'JUMOKE', 'KUNLE', 'LADI'];
const LAST = ['ADEBAYO', 'BAKARE', 'CHIKE', 'DIKE', 'EZEH', 'FAROUK', 'GARUBA', 'IGWE', 'LAWAL', 'MUSA', 'NNAJI', 'OGUNDIPE'];
const INTEGRATION = { id: 463433, is_live: false, business_name: 'Escrow Desk Test' };
/** GET /dedicated_account/available_providers in the reference lists access-bank and wema-bank; titan-paystack and test-bank appear in the DVA examples. */
const DVA_BANKS: Record<string, { name: string; id: number }> = {
  'test-bank': { name: 'Test Bank', id: 20 },
  'wema-bank': { name: 'Wema Bank', id: 20 },
  'titan-paystack': { name: 'Titan Paystack', id: 1 },
  'access-bank': { name: 'Access Bank', id: 1 },
};

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: object = {},
  ) {
    super(message);
  }
}

const code = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex').slice(0, 15)}`;
const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** A stable, plausible name per account number, so a test can assert it. */
function nameFor(accountNumber: string): string {
  const digest = createHash('sha256').update(accountNumber).digest();
  return `${FIRST[digest[0]! % FIRST.length]} ${LAST[digest[1]! % LAST.length]}`;
}

export async function startFakePaystack(options: Options = {}): Promise<FakePaystack> {
  const secretKey = options.secretKey ?? `sk_test_fake${randomBytes(12).toString('hex')}`;
  const outcomeDelayMs = options.outcomeDelayMs ?? 100;
  let webhookUrl = options.webhookUrl ?? null;
  let decide: (transfer: FakeTransfer) => TransferOutcome = () => 'success';
  let globalDelivery: WebhookDelivery = 'send';
  const deliveryFor = new Map<string, WebhookDelivery>();
  const accountNames = new Map<string, string>();
  const unknownAccounts = new Set<string>();
  const requests: RecordedRequest[] = [];
  const webhooks: SentWebhook[] = [];
  const transfers: FakeTransfer[] = [];
  const recipients: FakeRecipient[] = [];
  const customers: FakeCustomer[] = [];
  const dedicatedAccounts: FakeDedicatedAccount[] = [];
  const transactions: FakeTransaction[] = [];
  /** This server's own address, for the hosted page's authorization_url: known once it listens. */
  let baseUrl = '';
  const inFlight = new Set<Promise<unknown>>();
  let nextId = 1000;
  let hold: { waiting: (() => void)[]; first?: (t: FakeTransfer) => void } | null = null;
  let transferDelayMs = 0;

  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => undefined);
    return p;
  };
  const now = () => new Date().toISOString();
  const findTransfer = (reference: string) => transfers.find((t) => t.reference === reference.toLowerCase());

  async function post(body: string, signature: string): Promise<SentWebhook['answered']> {
    if (!webhookUrl) return 'unreachable';
    try {
      const response = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-paystack-signature': signature }, body, signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer().catch(() => undefined);
      return response.status;
    } catch {
      return 'unreachable';
    }
  }

  /** Signed over the exact bytes sent, keyed with the secret key (HMAC-SHA512, hex). */
  const sign = (body: string, key = secretKey) => createHmac('sha512', key).update(body, 'utf8').digest('hex');

  async function deliver(event: object, reference: string, mode: WebhookDelivery, times = mode === 'twice' ? 2 : 1): Promise<SentWebhook['answered'][]> {
    const body = JSON.stringify(event);
    const signature = sign(body);
    const name = (event as { event?: string }).event ?? '';
    if (mode === 'lose') {
      webhooks.push({ event: name, reference, body, signature, answered: 'lost' });
      return ['lost'];
    }
    const answers: SentWebhook['answered'][] = [];
    for (let i = 0; i < times; i += 1) {
      const answered = await post(body, signature);
      webhooks.push({ event: name, reference, body, signature, answered });
      answers.push(answered);
    }
    return answers;
  }

  const recipientJson = (r: FakeRecipient) => ({
    active: true,
    createdAt: r.createdAt,
    currency: 'NGN',
    description: null,
    domain: 'test',
    email: null,
    id: r.id,
    integration: INTEGRATION.id,
    metadata: null,
    name: r.name,
    recipient_code: r.recipientCode,
    type: 'nuban',
    updatedAt: r.createdAt,
    is_deleted: false,
    details: { authorization_code: null, account_number: r.accountNumber, account_name: r.name, bank_code: r.bankCode, bank_name: r.bankName },
  });

  /** As the verify sample (dist/api/transfers/verify/response.json): the recipient object in full. */
  const transferJson = (t: FakeTransfer) => {
    const r = recipients.find((x) => x.recipientCode === t.recipientCode)!;
    return {
      amount: t.amountKobo,
      createdAt: t.createdAt,
      currency: t.currency,
      domain: 'test',
      failures: null,
      id: t.id,
      integration: INTEGRATION.id,
      reason: t.reason,
      reference: t.reference,
      source: 'balance',
      source_details: null,
      status: t.status,
      titan_code: null,
      transfer_code: t.transferCode,
      transferred_at: t.status === 'success' || t.status === 'reversed' ? t.updatedAt : null,
      updatedAt: t.updatedAt,
      recipient: recipientJson(r),
      session: { provider: t.status === 'pending' ? null : 'nip', id: t.status === 'pending' ? null : String(100000 + t.id) },
      fee_charged: 1000,
      fees_breakdown: null,
      gateway_response: t.gatewayResponse,
    };
  };

  /** As the transfer.success / transfer.failed / transfer.reversed samples on the webhooks page. */
  const transferEvent = (t: FakeTransfer) => {
    const { fees_breakdown: _fees, ...data } = transferJson(t);
    return { event: `transfer.${t.status}`, data: { ...data, integration: INTEGRATION } };
  };

  async function settle(t: FakeTransfer, status: 'success' | 'failed' | 'reversed', reason: string | null): Promise<void> {
    t.status = status;
    t.gatewayResponse = reason;
    t.updatedAt = now();
    await deliver(transferEvent(t), t.reference, deliveryFor.get(t.reference) ?? globalDelivery);
  }

  function scheduleOutcome(t: FakeTransfer) {
    const outcome = decide(t);
    if (outcome === 'pending') return;
    const [status, reason] = typeof outcome === 'object' ? (['failed', outcome.reason] as const) : ([outcome, outcome === 'failed' ? 'Could not complete the transfer' : null] as const);
    track(new Promise((resolve) => setTimeout(resolve, outcomeDelayMs)).then(() => (t.status === 'pending' ? settle(t, status, reason) : undefined)));
  }

  const ok = (message: string, data: unknown) => ({ status: 200, body: { status: true, message, data } });

  function resolveAccount(query: Record<string, string>) {
    const { account_number: number, bank_code: bankCode } = query;
    if (!isText(number) || !isText(bankCode)) throw new Refusal(400, 'Account number and bank code are required');
    // The reference lists 404 for this endpoint; the wording of its message is not published.
    if (unknownAccounts.has(number)) throw new Refusal(404, 'Could not resolve account name. Check parameters or try again.');
    return ok('Account number resolved', { account_number: number, account_name: accountNames.get(number) ?? nameFor(number), bank_id: Number(bankCode) || 1 });
  }

  function createRecipient(body: Record<string, unknown>) {
    const { type, name, account_number: accountNumber, bank_code: bankCode, currency } = body;
    if (!['nuban', 'ghipss', 'mobile_money', 'basa', 'authorization'].includes(type as string)) throw new Refusal(400, 'Invalid recipient type');
    if (type !== 'nuban') throw new Refusal(400, 'This fake keeps nuban recipients only');
    if (!isText(name)) throw new Refusal(400, 'Name is required');
    if (!isText(accountNumber) || !/^\d{10}$/.test(accountNumber)) throw new Refusal(400, 'Account number is invalid');
    if (!isText(bankCode)) throw new Refusal(400, 'Bank code is required');
    if (currency !== undefined && currency !== 'NGN') throw new Refusal(400, 'Currency is not supported for nuban recipients');
    // "A duplicate account number will lead to the retrieval of the existing record."
    const existing = recipients.find((r) => r.accountNumber === accountNumber && r.bankCode === bankCode);
    if (existing) return ok('Transfer recipient created successfully', recipientJson(existing));
    const r: FakeRecipient = { id: nextId++, recipientCode: code('RCP'), name, accountNumber, bankCode, bankName: findBank(bankCode)?.name ?? 'Test Bank', createdAt: now() };
    recipients.push(r);
    return ok('Transfer recipient created successfully', recipientJson(r));
  }

  function initiateTransfer(body: Record<string, unknown>): { response: ReturnType<typeof ok>; transfer: FakeTransfer } {
    const { source, amount, recipient, reference, reason, currency } = body;
    if (source !== 'balance') throw new Refusal(400, 'Source is required and must be balance');
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) throw new Refusal(400, 'Amount is required and must be a whole number of kobo');
    if (currency !== undefined && currency !== 'NGN') throw new Refusal(400, 'Currency is not supported');
    if (!isText(reference)) throw new Refusal(400, 'Reference is required');
    // "Only -,_ and alphanumeric characters allowed"; the OpenAPI schema gives a minimum of 16.
    if (!/^[A-Za-z0-9_-]{16,}$/.test(reference)) throw new Refusal(400, 'Invalid transfer reference', { type: 'validation_error', code: 'invalid_reference' });
    const r = isText(recipient) ? recipients.find((x) => x.recipientCode === recipient) : undefined;
    if (!r) {
      // The reference's 400 sample for POST /transfer, word for word.
      throw new Refusal(400, 'Recipient specified is invalid', {
        meta: { nextStep: 'Provide a valid recipient. Ensure you are passing the recipient code in the recipient param' },
        type: 'validation_error',
        code: 'invalid_transfer_recipient',
      });
    }
    // The errors page: "This reference has already been used on a prior transfer". Its message and code
    // are not published; these follow the OpenAPI Error example for a duplicate transaction reference.
    if (findTransfer(reference)) throw new Refusal(400, 'Duplicate Transfer Reference', { type: 'validation_error', code: 'duplicate_reference' });
    const t: FakeTransfer = {
      id: nextId++,
      transferCode: code('TRF'),
      reference: reference.toLowerCase(),
      amountKobo: amount,
      currency: 'NGN',
      reason: typeof reason === 'string' ? reason : '',
      recipientCode: r.recipientCode,
      status: 'pending',
      gatewayResponse: null,
      createdAt: now(),
      updatedAt: now(),
    };
    transfers.push(t);
    scheduleOutcome(t);
    const { recipient: _r, session: _s, fee_charged: _f, fees_breakdown: _b, gateway_response: _g, ...data } = transferJson(t);
    return { response: ok('Transfer has been queued', { transfersessionid: [], transfertrials: [], ...data, recipient: r.id, request: t.id }), transfer: t };
  }

  function verifyTransfer(reference: string) {
    const t = findTransfer(reference);
    if (!t) throw new Refusal(404, 'Transfer not found');
    return ok('Transfer retrieved', transferJson(t));
  }

  const customerJson = (c: FakeCustomer) => ({
    email: c.email,
    first_name: c.firstName,
    last_name: c.lastName,
    phone: c.phone,
    integration: INTEGRATION.id,
    domain: 'test',
    customer_code: c.customerCode,
    id: c.id,
    identified: false,
    identifications: null,
    createdAt: c.createdAt,
    updatedAt: c.createdAt,
  });

  function createCustomer(body: Record<string, unknown>) {
    const { email, first_name: firstName, last_name: lastName, phone } = body;
    if (!isText(email) || !/^[^@\s]+@[^@\s]+$/.test(email)) throw new Refusal(400, 'Invalid Email Address Passed');
    for (const [field, value] of Object.entries({ first_name: firstName, last_name: lastName, phone })) {
      if (value !== undefined && typeof value !== 'string') throw new Refusal(400, `${field} must be a string`);
    }
    // Not in the reference: one customer per email here, so a repeated create returns the same one.
    const existing = customers.find((c) => c.email === email.toLowerCase());
    if (existing) return ok('Customer created', customerJson(existing));
    const c: FakeCustomer = { id: nextId++, customerCode: code('CUS'), email: email.toLowerCase(), firstName: (firstName as string) ?? null, lastName: (lastName as string) ?? null, phone: (phone as string) ?? null, createdAt: now() };
    customers.push(c);
    return ok('Customer created', customerJson(c));
  }

  function createDedicatedAccount(body: Record<string, unknown>) {
    const { customer, preferred_bank: preferredBank } = body;
    if (!isText(customer) && typeof customer !== 'number') throw new Refusal(400, 'Customer is required');
    const slug = preferredBank === undefined ? 'test-bank' : preferredBank;
    if (typeof slug !== 'string' || !DVA_BANKS[slug]) throw new Refusal(400, 'Preferred bank is not a dedicated account provider');
    // "Customer ID or code" (https://paystack.com/docs/api/dedicated-virtual-account/#create).
    const c = customers.find((x) => x.customerCode === customer || x.id === Number(customer));
    if (!c) throw new Refusal(404, 'Customer not found');
    // Not in the reference: a customer keeps one account here, so a repeated create returns it.
    const a =
      dedicatedAccounts.find((x) => x.customerCode === c.customerCode) ??
      (() => {
        const created: FakeDedicatedAccount = {
          id: nextId++,
          accountNumber: `993${String(dedicatedAccounts.length + 1).padStart(7, '0')}`,
          accountName: `PAYSTACK/${[c.firstName, c.lastName].filter(Boolean).join(' ')}`,
          bank: { ...DVA_BANKS[slug]!, slug },
          customerCode: c.customerCode,
          createdAt: now(),
        };
        dedicatedAccounts.push(created);
        return created;
      })();
    return ok('NUBAN successfully created', {
      bank: a.bank,
      account_name: a.accountName,
      account_number: a.accountNumber,
      assigned: true,
      currency: 'NGN',
      metadata: null,
      active: true,
      id: a.id,
      created_at: a.createdAt,
      updated_at: a.createdAt,
      assignment: { integration: INTEGRATION.id, assignee_id: c.id, assignee_type: 'Customer', expired: false, account_type: 'PAY-WITH-TRANSFER-RECURRING', assigned_at: a.createdAt },
      customer: { id: c.id, first_name: c.firstName, last_name: c.lastName, email: c.email, customer_code: c.customerCode, phone: c.phone, risk_action: 'default' },
    });
  }

  /**
   * POST /transaction/initialize: `email` and `amount` (kobo) required; `reference` "Only -, ., = and alphanumeric
   * characters allowed" and unique; `callback_url` and `metadata` optional. Answers
   * `data: {authorization_url, access_code, reference}` ("Authorization URL created").
   */
  function initializeTransaction(b: Record<string, unknown>) {
    if (!isText(b.email) || !b.email.includes('@')) throw new Refusal(400, 'Invalid Email Address Passed');
    const amount = typeof b.amount === 'string' && /^\d+$/.test(b.amount) ? Number(b.amount) : b.amount;
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100) throw new Refusal(400, 'Invalid Amount Sent');
    const reference = b.reference === undefined ? randomBytes(8).toString('hex') : b.reference;
    if (!isText(reference) || !/^[-.=A-Za-z0-9]+$/.test(reference)) throw new Refusal(400, 'Invalid transaction reference: only -, ., = and alphanumeric characters allowed');
    if (transactions.some((t) => t.reference === reference)) throw new Refusal(400, 'Duplicate Transaction Reference');
    if (b.callback_url !== undefined && (!isText(b.callback_url) || !/^https?:\/\//.test(b.callback_url))) throw new Refusal(400, 'Invalid callback url');
    const t: FakeTransaction = {
      id: nextId++,
      reference,
      accessCode: randomBytes(8).toString('hex'),
      amount,
      email: b.email,
      callbackUrl: (b.callback_url as string | undefined) ?? null,
      metadata: b.metadata ?? null,
      status: 'abandoned',
      gatewayResponse: null,
      paidAt: null,
      channel: null,
      createdAt: now(),
    };
    transactions.push(t);
    return { status: 200, body: { status: true, message: 'Authorization URL created', data: { authorization_url: `${baseUrl}/checkout/${t.accessCode}`, access_code: t.accessCode, reference } } };
  }

  /** The transaction as the verify answer and the charge.success sample show it (fields of https://paystack.com/docs/payments/verify-payments/). */
  function transactionData(t: FakeTransaction) {
    return {
      id: t.id,
      domain: 'test',
      status: t.status,
      reference: t.reference,
      amount: t.amount,
      message: null,
      gateway_response: t.gatewayResponse,
      paid_at: t.paidAt,
      created_at: t.createdAt,
      channel: t.channel ?? 'card',
      currency: 'NGN',
      ip_address: '127.0.0.1',
      metadata: t.metadata,
      fees: t.status === 'success' ? Math.min(200_000, Math.round(t.amount * 0.015)) : null,
      customer: { id: 1, first_name: null, last_name: null, email: t.email, customer_code: `CUS_${t.accessCode}`, phone: null, metadata: null, risk_action: 'default' },
      authorization:
        t.status === 'success'
          ? { authorization_code: `AUTH_${t.accessCode}`, bin: '408408', last4: '4081', exp_month: '12', exp_year: '2030', channel: t.channel ?? 'card', card_type: 'visa', bank: 'TEST BANK', country_code: 'NG', brand: 'visa', reusable: true, signature: null }
          : {},
    };
  }

  /** GET /transaction/verify/:reference: the transaction, or 404 "Transaction reference not found". */
  function verifyTransaction(reference: string) {
    const t = transactions.find((x) => x.reference === reference);
    if (!t) throw new Refusal(404, 'Transaction reference not found');
    return { status: 200, body: { status: true, message: 'Verification successful', data: transactionData(t) } };
  }

  const chargeSuccess = (t: FakeTransaction) => ({ event: 'charge.success', data: transactionData(t) });

  /** A declined transaction can still be paid: Paystack's page lets the buyer try again with another card. */
  async function payTransaction(reference: string, delivery: WebhookDelivery = 'send', channel = 'card', paidAt = now()): Promise<SentWebhook['answered'][]> {
    const t = transactions.find((x) => x.reference === reference);
    if (!t || t.status === 'success') throw new Error(`no unpaid transaction has reference ${reference}`);
    Object.assign(t, { status: 'success', gatewayResponse: 'Successful', paidAt, channel });
    return deliver(chargeSuccess(t), reference, deliveryFor.get(reference.toLowerCase()) ?? delivery);
  }

  /** The hosted payment page: the amount and Pay / Decline; either then sends the browser to callback_url with trxref and reference. */
  async function hostedPage(method: string, path: string): Promise<{ status: number; html?: string; location?: string } | undefined> {
    const page = /^\/checkout\/([0-9a-f]+)(?:\/(pay|decline))?$/.exec(path);
    if (!page) return undefined;
    const t = transactions.find((x) => x.accessCode === page[1]);
    if (!t) return { status: 404, html: '<!doctype html><title>Not found</title><h1>This payment page does not exist</h1>' };
    if (method === 'GET' && !page[2]) {
      const naira = (t.amount / 100).toFixed(2);
      return {
        status: 200,
        html: `<!doctype html><html lang="en"><title>Paystack (fake)</title><main><h1>Pay NGN ${naira}</h1><p>${t.email}</p>
          <form method="post" action="/checkout/${t.accessCode}/pay"><button>Pay</button></form>
          <form method="post" action="/checkout/${t.accessCode}/decline"><button>Decline</button></form></main></html>`,
      };
    }
    if (method !== 'POST' || !page[2]) return { status: 405, html: 'Method not allowed' };
    if (t.status === 'abandoned') {
      if (page[2] === 'pay') await track(payTransaction(t.reference));
      else Object.assign(t, { status: 'failed', gatewayResponse: 'Declined' });
    }
    if (!t.callbackUrl) return { status: 200, html: `<!doctype html><title>Done</title><p>${t.status}</p>` };
    const back = new URL(t.callbackUrl);
    back.searchParams.set('trxref', t.reference);
    back.searchParams.set('reference', t.reference);
    return { status: 302, location: back.toString() };
  }

  async function route(method: string, path: string, query: Record<string, string>, body: unknown): Promise<{ status: number; body: object }> {
    const object = () => {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Refusal(400, 'Request body must be a JSON object');
      return body as Record<string, unknown>;
    };
    if (method === 'GET' && path === '/bank/resolve') return resolveAccount(query);
    if (method === 'POST' && path === '/transferrecipient') return createRecipient(object());
    if (method === 'POST' && path === '/customer') return createCustomer(object());
    if (method === 'POST' && path === '/dedicated_account') return createDedicatedAccount(object());
    if (method === 'POST' && path === '/transaction/initialize') return initializeTransaction(object());
    const verifyCharge = /^\/transaction\/verify\/([^/]+)$/.exec(path);
    if (method === 'GET' && verifyCharge) return verifyTransaction(decodeURIComponent(verifyCharge[1]!));
    const verify = /^\/transfer\/verify\/([^/]+)$/.exec(path);
    if (method === 'GET' && verify) return verifyTransfer(decodeURIComponent(verify[1]!));
    if (method === 'POST' && path === '/transfer') {
      if (transferDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, transferDelayMs));
      const { response, transfer } = initiateTransfer(object());
      if (hold) {
        const held = hold;
        held.first?.(transfer);
        held.first = undefined;
        await new Promise<void>((release) => held.waiting.push(release));
      }
      return response;
    }
    throw new Refusal(404, 'Not found');
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const raw = Buffer.concat(chunks).toString('utf8');
      const record: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), body: undefined };
      requests.push(record);
      const answer = (status: number, body: object) => {
        record.status = status;
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      let readable = true;
      if (raw !== '') {
        try {
          record.body = JSON.parse(raw);
        } catch {
          record.body = raw;
          readable = false;
        }
      }
      // The hosted payment page is the buyer's browser's, without a key.
      if (url.pathname.startsWith('/checkout/')) {
        void hostedPage(record.method, url.pathname).then((shown) => {
          record.status = shown?.status ?? 404;
          if (res.destroyed) return;
          if (shown?.location) res.writeHead(302, { location: shown.location }).end();
          else res.writeHead(record.status, { 'content-type': 'text/html; charset=utf-8' }).end(shown?.html ?? 'Not found');
        });
        return;
      }
      if (req.headers.authorization !== `Bearer ${secretKey}`) return answer(401, { status: false, message: 'Invalid key' });
      if (!readable) return answer(400, { status: false, message: 'Invalid JSON in request body' });
      route(record.method, record.path, record.query, record.body).then(
        (result) => answer(result.status, result.body),
        (error: unknown) => (error instanceof Refusal ? answer(error.status, { status: false, message: error.message, ...error.extra }) : answer(500, { status: false, message: 'Internal error' })),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    requests,
    webhooks,
    transfers,
    recipients,
    customers,
    dedicatedAccounts,
    transactions,
    transaction: (reference) => transactions.find((t) => t.reference === reference),
    payTransaction: (reference, delivery, channel, paidAt) => track(payTransaction(reference, delivery, channel, paidAt)),
    chargeSuccessEvent(reference) {
      const t = transactions.find((x) => x.reference === reference);
      if (!t) throw new Error(`no transaction has reference ${reference}`);
      return chargeSuccess(t);
    },
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    transferOutcome(outcome) {
      decide = typeof outcome === 'function' ? outcome : () => outcome;
    },
    webhookDelivery(mode, reference) {
      if (reference) deliveryFor.set(reference.toLowerCase(), mode);
      else globalDelivery = mode;
    },
    holdTransfers() {
      const state: NonNullable<typeof hold> = { waiting: [] };
      const transferReceived = new Promise<FakeTransfer>((resolve) => (state.first = resolve));
      hold = state;
      return {
        transferReceived,
        release() {
          if (hold === state) hold = null;
          for (const release of state.waiting.splice(0)) release();
        },
      };
    },
    delayTransfers(ms) {
      transferDelayMs = ms;
    },
    async completeTransfer(reference, outcome, reason) {
      const t = findTransfer(reference);
      if (!t || t.status !== 'pending') throw new Error(`no pending transfer has reference ${reference}`);
      await track(settle(t, outcome, outcome === 'failed' ? (reason ?? 'Could not complete the transfer') : null));
    },
    async reverse(reference, reason) {
      const t = findTransfer(reference);
      if (!t) throw new Error(`no transfer has reference ${reference}`);
      await track(settle(t, 'reversed', reason ?? 'The receiving bank returned the transfer'));
    },
    async creditDedicatedAccount(a) {
      const account = dedicatedAccounts.find((x) => x.accountNumber === a.accountNumber || x.customerCode === a.customerCode);
      if (!account) throw new Error('no dedicated account matches');
      const c = customers.find((x) => x.customerCode === account.customerCode)!;
      const reference = a.reference ?? randomBytes(8).toString('hex');
      const paidAt = now();
      // The charge.success sample of the webhooks page, with the dedicated_nuban authorization of the DVA page.
      const event = {
        event: 'charge.success',
        data: {
          id: nextId++,
          domain: 'test',
          status: 'success',
          reference,
          amount: a.amountKobo,
          message: null,
          gateway_response: 'Approved',
          paid_at: paidAt,
          created_at: paidAt,
          channel: 'dedicated_nuban',
          currency: 'NGN',
          ip_address: null,
          metadata: { receiver_account_number: account.accountNumber, receiver_bank: account.bank.name },
          fees: 0,
          customer: { id: c.id, first_name: c.firstName, last_name: c.lastName, email: c.email, customer_code: c.customerCode, phone: c.phone, metadata: null, risk_action: 'default' },
          authorization: {
            authorization_code: code('AUTH'),
            bin: '008XXX',
            last4: 'X553',
            exp_month: '01',
            exp_year: '2030',
            channel: 'dedicated_nuban',
            card_type: 'transfer',
            bank: 'Test Bank',
            country_code: 'NG',
            brand: 'Managed Account',
            reusable: false,
            signature: null,
            sender_bank: 'Test Bank',
            sender_bank_account_number: 'XXXXXX0011',
            sender_country: 'NG',
            sender_name: 'TEST PAYER',
            narration: `NIP: TEST PAYER -${account.accountNumber}`,
            receiver_bank_account_number: account.accountNumber,
            receiver_bank: account.bank.name,
          },
          plan: {},
        },
      };
      const answered = await track(deliver(event, reference, 'send', Math.max(1, a.times ?? 1)));
      return { reference, answered };
    },
    async sendEvent(event) {
      const [answered] = await track(deliver(event, '', 'send'));
      return answered!;
    },
    async sendForged(event) {
      const body = JSON.stringify(event);
      const signature = sign(body, `${secretKey}_not`);
      const answered = await track(post(body, signature));
      webhooks.push({ event: (event as { event?: string }).event ?? '', reference: '', body, signature, answered });
      return answered;
    },
    setAccountName(accountNumber, name) {
      accountNames.set(accountNumber, name);
      unknownAccounts.delete(accountNumber);
    },
    unknownAccount(accountNumber) {
      unknownAccounts.add(accountNumber);
    },
    transfer: (reference) => findTransfer(reference),
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async close() {
      if (hold) for (const release of hold.waiting.splice(0)) release();
      hold = null;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
