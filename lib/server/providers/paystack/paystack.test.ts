/**
 * The Paystack adapter against the Paystack-compatible server of e2e/support/fake-paystack.ts, over
 * loopback HTTP (docs/decisions.md §12). Each test names the reference endpoint and fields it relies on.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakePaystack, type FakePaystack } from '@/e2e/support/fake-paystack';
import type { Bank } from '@/lib/escrow/banks';
import { ProviderError, type PaymentProvider } from '../provider';
import { paystackProvider, payoutOutcome } from './adapter';
import { isDuplicateReference, paystackApi } from './api';
import { parsePaystackEvent, verifyPaystackSignature } from './webhook';

const GTBANK: Bank = { code: '058', name: 'GTBank' };
const ACCOUNT = { accountNumber: '0123456789', accountName: 'ADAORA IGWE', bankCode: '058', recipientCode: null };
const ourReference = () => `PO_${randomBytes(10).toString('hex').toUpperCase()}`;

type Received = { body: string; signature: string | null; verified: boolean };

let fake: FakePaystack;
let provider: PaymentProvider;
let receiver: http.Server;
let receiverUrl: string;
let received: Received[] = [];

beforeAll(async () => {
  // Stands in for our webhook route: checks x-paystack-signature as the route does, 401 when it fails.
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = (req.headers['x-paystack-signature'] as string | undefined) ?? null;
      const verified = verifyPaystackSignature(body, signature, fake.secretKey);
      received.push({ body, signature, verified });
      res.writeHead(verified ? 200 : 401).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/providers/paystack/webhook`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

beforeEach(async () => {
  received = [];
  fake = await startFakePaystack({ webhookUrl: receiverUrl, outcomeDelayMs: 10 });
  provider = paystackProvider({ secretKey: fake.secretKey, baseUrl: fake.url });
});

afterEach(async () => {
  await fake.idle();
  await fake.close();
});

const events = () => received.map((r) => JSON.parse(r.body) as { event: string; data: Record<string, unknown> });

describe('name enquiry: GET /bank/resolve?account_number&bank_code (https://paystack.com/docs/api/verification/#resolve-account)', () => {
  it('answers data.account_name for a known account', async () => {
    fake.setAccountName('0123456789', 'ADAORA IGWE');
    await expect(provider.resolveAccountName('0123456789', GTBANK)).resolves.toBe('ADAORA IGWE');
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: '/bank/resolve', query: { account_number: '0123456789', bank_code: '058' } });
  });

  it('gives a stable name to an account it was told nothing about', async () => {
    const first = await provider.resolveAccountName('2233445566', GTBANK);
    expect(first).toMatch(/^[A-Z]+ [A-Z]+$/);
    await expect(provider.resolveAccountName('2233445566', GTBANK)).resolves.toBe(first);
  });

  it('reads the 404 the reference lists for an account it cannot resolve as ACCOUNT_NOT_FOUND', async () => {
    fake.unknownAccount('0000000001');
    const error = await provider.resolveAccountName('0000000001', GTBANK).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'ACCOUNT_NOT_FOUND', retryable: false });
  });
});

describe('payouts: POST /transferrecipient then POST /transfer (https://paystack.com/docs/api/transfer-recipient/#create, https://paystack.com/docs/api/transfer/#initiate)', () => {
  it('creates a nuban recipient when the account has none, then sends our reference in lowercase from the balance', async () => {
    const reference = ourReference();
    const sent = await provider.sendPayout({ reference, amountKobo: 250_000, reason: `Payout ${reference}`, account: ACCOUNT });

    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /transferrecipient', 'POST /transfer']);
    expect(fake.requests[0]!.body).toEqual({ type: 'nuban', name: 'ADAORA IGWE', account_number: '0123456789', bank_code: '058', currency: 'NGN' });
    // data.recipient_code of the recipient is what POST /transfer takes as `recipient`.
    expect(sent.recipientCode).toMatch(/^RCP_/);
    expect(fake.requests[1]!.body).toEqual({ source: 'balance', amount: 250_000, recipient: sent.recipientCode, reference: reference.toLowerCase(), reason: `Payout ${reference}`, currency: 'NGN' });
    // data.status "pending" is not conclusive (https://paystack.com/docs/transfers/how-transfers-work/); data.transfer_code is kept.
    expect(sent.providerReference).toMatch(/^TRF_/);
    expect(sent.outcome).toEqual({ status: 'processing', providerReference: sent.providerReference });

    // Then transfer.success arrives, signed; it names our reference again once read.
    await fake.idle();
    expect(received).toHaveLength(1);
    expect(received[0]!.verified).toBe(true);
    expect(parsePaystackEvent(JSON.parse(received[0]!.body))).toEqual({ kind: 'transfer', outcome: 'paid', reference, transferCode: sent.providerReference, amountKobo: 250_000 });
  });

  it('reuses the recipient kept on the account', async () => {
    const first = await provider.sendPayout({ reference: ourReference(), amountKobo: 10_000, reason: 'first', account: ACCOUNT });
    const second = await provider.sendPayout({ reference: ourReference(), amountKobo: 20_000, reason: 'second', account: { ...ACCOUNT, recipientCode: first.recipientCode } });
    expect(second.recipientCode).toBe(first.recipientCode);
    expect(fake.requests.filter((r) => r.path === '/transferrecipient')).toHaveLength(1);
  });

  it('recognises the refusal of a used reference and answers with the transfer Paystack already has (GET /transfer/verify/:reference)', async () => {
    const reference = ourReference();
    fake.transferOutcome('pending');
    const first = await provider.sendPayout({ reference, amountKobo: 75_000, reason: 'once', account: ACCOUNT });

    // The refusal itself, as our client sees it: a 4xx, REFUSED, recognisable as a duplicate.
    const api = paystackApi({ secretKey: fake.secretKey, baseUrl: fake.url });
    const refusal = await api.initiateTransfer({ amountKobo: 75_000, recipientCode: first.recipientCode!, reference: reference.toLowerCase(), reason: 'again' }).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ kind: 'REFUSED', httpStatus: 400 });
    expect(isDuplicateReference(refusal)).toBe(true);

    // The adapter's repeated send: refused, verified, and the same transfer comes back.
    const again = await provider.sendPayout({ reference, amountKobo: 75_000, reason: 'again', account: { ...ACCOUNT, recipientCode: first.recipientCode } });
    expect(again).toEqual({ providerReference: first.providerReference, recipientCode: first.recipientCode, outcome: { status: 'processing', providerReference: first.providerReference } });
    expect(fake.transfers.filter((t) => t.reference === reference.toLowerCase())).toHaveLength(1);
    expect(fake.requests.filter((r) => r.path === `/transfer/verify/${reference.toLowerCase()}`)).toHaveLength(1);
  });

  it('does not take a transfer of another amount under our reference as ours', async () => {
    const reference = ourReference();
    const first = await provider.sendPayout({ reference, amountKobo: 75_000, reason: 'once', account: ACCOUNT });
    const error = await provider.sendPayout({ reference, amountKobo: 80_000, reason: 'again', account: { ...ACCOUNT, recipientCode: first.recipientCode } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'REFUSED', retryable: false });
  });

  it('makes the recipient again when the kept one is refused as invalid (the reference 400 "Recipient specified is invalid")', async () => {
    const sent = await provider.sendPayout({ reference: ourReference(), amountKobo: 5_000, reason: 'stale', account: { ...ACCOUNT, recipientCode: 'RCP_deleted0000000' } });
    expect(sent.recipientCode).toMatch(/^RCP_/);
    expect(sent.recipientCode).not.toBe('RCP_deleted0000000');
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /transfer', 'POST /transferrecipient', 'POST /transfer']);
  });

  it('holds a send at Paystack: the transfer exists there before our side hears back', async () => {
    const reference = ourReference();
    fake.transferOutcome('pending');
    const hold = fake.holdTransfers();
    const sending = provider.sendPayout({ reference, amountKobo: 9_000, reason: 'held', account: ACCOUNT });
    const atPaystack = await hold.transferReceived;
    expect(atPaystack.reference).toBe(reference.toLowerCase());
    await expect(provider.checkPayout(reference)).resolves.toEqual({ status: 'processing', providerReference: atPaystack.transferCode });
    hold.release();
    await expect(sending).resolves.toMatchObject({ providerReference: atPaystack.transferCode });
  });
});

describe('requery: GET /transfer/verify/:reference, data.status (https://paystack.com/docs/api/transfer/#verify)', () => {
  const send = (reference: string) => provider.sendPayout({ reference, amountKobo: 12_345, reason: 'requery', account: ACCOUNT });

  it('is unknown when Paystack answers 404 "Transfer not found"', async () => {
    await expect(provider.checkPayout(ourReference())).resolves.toEqual({ status: 'unknown' });
  });

  it('is processing while the transfer is pending', async () => {
    fake.transferOutcome('pending');
    const reference = ourReference();
    const sent = await send(reference);
    await expect(provider.checkPayout(reference)).resolves.toEqual({ status: 'processing', providerReference: sent.providerReference });
  });

  it('is paid on success, even when the webhook was lost', async () => {
    fake.webhookDelivery('lose');
    const reference = ourReference();
    const sent = await send(reference);
    await fake.idle();
    expect(received).toHaveLength(0);
    expect(fake.webhooks.map((w) => w.answered)).toEqual(['lost']);
    await expect(provider.checkPayout(reference)).resolves.toEqual({ status: 'paid', providerReference: sent.providerReference });
  });

  it('is failed with data.gateway_response as the reason', async () => {
    fake.transferOutcome({ status: 'failed', reason: 'Beneficiary bank unavailable' });
    const reference = ourReference();
    const sent = await send(reference);
    await fake.idle();
    await expect(provider.checkPayout(reference)).resolves.toEqual({ status: 'failed', reason: 'Beneficiary bank unavailable', providerReference: sent.providerReference });
    expect(events().map((e) => e.event)).toEqual(['transfer.failed']);
  });

  it('is reversed after a reversal, which also sends transfer.reversed', async () => {
    const reference = ourReference();
    const sent = await send(reference);
    await fake.idle();
    await fake.reverse(reference, 'Account closed');
    await expect(provider.checkPayout(reference)).resolves.toEqual({ status: 'reversed', reason: 'Account closed', providerReference: sent.providerReference });
    expect(events().map((e) => e.event)).toEqual(['transfer.success', 'transfer.reversed']);
    expect(parsePaystackEvent(events()[1])).toMatchObject({ kind: 'transfer', outcome: 'reversed', reference, reason: 'Account closed' });
  });

  it('maps every status of https://paystack.com/docs/transfers/how-transfers-work/', () => {
    const status = (s: string) => payoutOutcome({ reference: 'x', transfer_code: 'TRF_x', amount: 1, status: s }).status;
    expect(['success', 'reversed', 'failed', 'abandoned', 'blocked', 'rejected', 'pending', 'otp', 'received', 'queued'].map(status)).toEqual([
      'paid',
      'reversed',
      'failed',
      'failed',
      'failed',
      'failed',
      'processing',
      'processing',
      'processing',
      'processing',
    ]);
  });
});

describe('live funding: POST /customer then POST /dedicated_account (https://paystack.com/docs/api/customer/#create, https://paystack.com/docs/api/dedicated-virtual-account/#create)', () => {
  const customer = { email: 'ada@example.com', firstName: 'Ada', lastName: 'Igwe', phone: '+2348123456789', walletId: 'w1' };

  it('opens a dedicated account with the test-bank slug under a test key', async () => {
    const account = await provider.openFundingAccount(customer);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /customer', 'POST /dedicated_account']);
    expect(fake.requests[0]!.body).toEqual({ email: 'ada@example.com', first_name: 'Ada', last_name: 'Igwe', phone: '+2348123456789' });
    // data.customer_code of the customer is the `customer` of the dedicated account.
    expect(account.customerCode).toMatch(/^CUS_/);
    expect(fake.requests[1]!.body).toEqual({ customer: account.customerCode, preferred_bank: 'test-bank' });
    // data.account_number, data.account_name, data.bank.name.
    expect(account).toEqual({ accountNumber: expect.stringMatching(/^\d{10}$/), accountName: 'PAYSTACK/Ada Igwe', bankName: 'Test Bank', customerCode: account.customerCode });
  });

  it('uses the configured preferred_bank', async () => {
    const wema = paystackProvider({ secretKey: fake.secretKey, baseUrl: fake.url, dedicatedAccountBank: 'wema-bank' });
    await expect(wema.openFundingAccount(customer)).resolves.toMatchObject({ bankName: 'Wema Bank' });
  });

  it('a payment into it arrives as charge.success on the dedicated_nuban channel, twice when Paystack repeats it', async () => {
    const account = await provider.openFundingAccount(customer);
    const { reference, answered } = await fake.creditDedicatedAccount({ accountNumber: account.accountNumber, amountKobo: 500_000, times: 2 });
    expect(answered).toEqual([200, 200]);
    expect(received).toHaveLength(2);
    expect(received[0]!.body).toBe(received[1]!.body);
    expect(parsePaystackEvent(JSON.parse(received[0]!.body))).toEqual({
      kind: 'funding',
      reference,
      amountKobo: 500_000,
      customerCode: account.customerCode,
      paidAt: expect.any(Date),
      accountNumber: account.accountNumber,
    });
  });
});

describe('x-paystack-signature: hex HMAC-SHA512 of the raw body keyed with the secret key (https://paystack.com/docs/payments/webhooks/)', () => {
  const body = JSON.stringify({ event: 'transfer.success', data: { reference: 'po_x' } });

  it('accepts a signature the fake made over the exact bytes it sent', async () => {
    await fake.sendEvent({ event: 'charge.dispute.create', data: {} });
    expect(received[0]).toMatchObject({ verified: true });
    expect(verifyPaystackSignature(received[0]!.body, received[0]!.signature!.toUpperCase(), fake.secretKey)).toBe(true);
  });

  it('refuses a forged one (made with another key)', async () => {
    await expect(fake.sendForged({ event: 'transfer.success', data: {} })).resolves.toBe(401);
    expect(received[0]).toMatchObject({ verified: false });
  });

  it('refuses a missing, malformed or mismatched one', async () => {
    await fake.sendEvent({ event: 'charge.dispute.create', data: {} });
    const good = fake.webhooks[0]!;
    expect(verifyPaystackSignature(good.body, good.signature, fake.secretKey)).toBe(true);
    expect(verifyPaystackSignature(body, null, fake.secretKey)).toBe(false);
    expect(verifyPaystackSignature(body, '', fake.secretKey)).toBe(false);
    expect(verifyPaystackSignature(body, 'not-hex', fake.secretKey)).toBe(false);
    expect(verifyPaystackSignature(body, 'ab'.repeat(32), fake.secretKey)).toBe(false);
    expect(verifyPaystackSignature(`${good.body} `, good.signature, fake.secretKey)).toBe(false);
    expect(verifyPaystackSignature(good.body, good.signature, '')).toBe(false);
  });
});

describe('events, from the bodies the webhooks page shows (https://paystack.com/docs/payments/webhooks/)', () => {
  // Trimmed to the fields read; values as in the samples.
  const transferSample = (event: string, status: string) => ({
    event,
    data: { amount: 100000, currency: 'NGN', domain: 'test', failures: null, id: 860703114, reason: 'Bonus for the week', reference: 'acv_9ee55786-2323-4760-98e2-6380c9cb3f68', source: 'balance', status, transfer_code: 'TRF_v5tip3zx8nna9o78', gateway_response: null },
  });

  it('transfer.success, transfer.failed and transfer.reversed are transfer outcomes; data.reason (the narration) is not a failure reason', () => {
    for (const [event, status, outcome] of [
      ['transfer.success', 'success', 'paid'],
      ['transfer.failed', 'failed', 'failed'],
      ['transfer.reversed', 'reversed', 'reversed'],
    ] as const) {
      expect(parsePaystackEvent(transferSample(event, status))).toEqual({ kind: 'transfer', outcome, reference: 'acv_9ee55786-2323-4760-98e2-6380c9cb3f68', transferCode: 'TRF_v5tip3zx8nna9o78', amountKobo: 100000 });
    }
  });

  it('a reference of our shape comes back in capitals', () => {
    const sample = transferSample('transfer.success', 'success');
    expect(parsePaystackEvent({ ...sample, data: { ...sample.data, reference: 'po_0a1b2c3d4e5f6a7b8c9d' } })).toMatchObject({ reference: 'PO_0A1B2C3D4E5F6A7B8C9D' });
  });

  it('charge.success is funding on the dedicated_nuban channel (https://paystack.com/docs/payments/dedicated-virtual-accounts/), a checkout payment on any other (docs/decisions.md §16)', () => {
    const charge = {
      event: 'charge.success',
      data: {
        id: 302961,
        domain: 'live',
        status: 'success',
        reference: 'qTPrJoy9Bx',
        amount: 10000,
        paid_at: '2016-09-30T21:10:19.000Z',
        channel: 'card',
        currency: 'NGN',
        customer: { id: 68324, first_name: 'BoJack', last_name: 'Horseman', email: 'bojack@horseman.com', customer_code: 'CUS_qo38as2hpsgk2r0' },
        authorization: { authorization_code: 'AUTH_f5rnfq9p', channel: 'card', bank: 'Guaranty Trust Bank' },
      },
    };
    expect(parsePaystackEvent(charge)).toEqual({ kind: 'checkout', reference: 'qTPrJoy9Bx', amountKobo: 10000, paidAt: new Date('2016-09-30T21:10:19.000Z'), channel: 'card' });
    // Our checkout references go to Paystack as CO-… (initialize allows only -, ., = and alphanumerics) and come back as ours.
    expect(parsePaystackEvent({ ...charge, data: { ...charge.data, reference: 'CO-ABCDEFGHJKLMNPQRSTUV' } })).toMatchObject({ kind: 'checkout', reference: 'CO_ABCDEFGHJKLMNPQRSTUV' });
    expect(parsePaystackEvent({ ...charge, data: { ...charge.data, status: 'failed' } })).toEqual({ kind: 'ignored', event: 'charge.success' });
    const dedicated = {
      ...charge,
      data: { ...charge.data, channel: 'dedicated_nuban', authorization: { authorization_code: 'AUTH_0ozsafcpdf', channel: 'dedicated_nuban', card_type: 'transfer', receiver_bank_account_number: '9930000902', receiver_bank: 'Wema Bank' } },
    };
    expect(parsePaystackEvent(dedicated)).toEqual({
      kind: 'funding',
      reference: 'qTPrJoy9Bx',
      amountKobo: 10000,
      customerCode: 'CUS_qo38as2hpsgk2r0',
      paidAt: new Date('2016-09-30T21:10:19.000Z'),
      accountNumber: '9930000902',
    });
  });

  it('anything else, or a shape it does not expect, is ignored and never throws', () => {
    expect(parsePaystackEvent({ event: 'transfer.reversal', data: {} })).toEqual({ kind: 'ignored', event: 'transfer.reversal' });
    expect(parsePaystackEvent({ event: 'transfer.success', data: { reference: 'x' } })).toEqual({ kind: 'ignored', event: 'transfer.success' });
    expect(parsePaystackEvent({ event: 'charge.success', data: { status: 'success', channel: 'dedicated_nuban' } })).toEqual({ kind: 'ignored', event: 'charge.success' });
    for (const junk of [null, undefined, 42, 'text', [], {}, { event: 1 }, { event: 'x', data: null }]) {
      expect(parsePaystackEvent(junk).kind).toBe('ignored');
    }
  });
});

describe('failures of the call itself', () => {
  it('the fake answers a wrong key 401 {status:false, message:"Invalid key"}; the adapter treats it as ours to fix, retryable', async () => {
    const response = await fetch(`${fake.url}/transfer/verify/po_anything`, { headers: { authorization: 'Bearer sk_test_wrong' } });
    expect(response.status).toBe(401);
    await expect(response.json()).resolves.toEqual({ status: false, message: 'Invalid key' });
    const wrong = paystackProvider({ secretKey: 'sk_test_wrong', baseUrl: fake.url });
    await expect(wrong.checkPayout(ourReference())).rejects.toMatchObject({ kind: 'UNAVAILABLE', retryable: true });
  });

  it('a refused body is a 400 with Paystack-style message, REFUSED and not retryable', async () => {
    const api = paystackApi({ secretKey: fake.secretKey, baseUrl: fake.url });
    await expect(api.initiateTransfer({ amountKobo: 100, recipientCode: 'RCP_none', reference: 'short', reason: '' })).rejects.toMatchObject({ kind: 'REFUSED', httpStatus: 400, retryable: false });
  });

  it('an unreachable Paystack is UNAVAILABLE and retryable', async () => {
    const closed = await startFakePaystack();
    await closed.close();
    const gone = paystackProvider({ secretKey: closed.secretKey, baseUrl: closed.url });
    await expect(gone.checkPayout(ourReference())).rejects.toMatchObject({ kind: 'UNAVAILABLE', retryable: true });
  });
});
