/**
 * Live money through Paystack (docs/decisions.md §12), over HTTP, against a Paystack-compatible server on loopback
 * (e2e/support/fake-paystack.ts): it checks the secret key and the request shapes as Paystack's reference
 * describes them and calls our webhook with real signatures. A server of its own, on a database that
 * outlives it (the crash case restarts it), with the requery interval shortened.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayoutRecord } from '@/lib/contracts/payouts';
import { startFakePaystack, type FakePaystack } from '../support/fake-paystack';
import type { TestServer } from '../support/test-server';
import { restartableStore, type RestartableStore } from './support/restartable-store';
import { call, expectError, expectOk, newVerifiedLiveClient } from './support/api';

let fake: FakePaystack;
let store: RestartableStore;
let server: TestServer;
let clientKey: string;

const REQUERY_MS = 1500;

async function startServer() {
  server = await store.start({
    ESCROW_PAYMENT_PROVIDER: 'paystack',
    PAYSTACK_SECRET_KEY: fake.secretKey,
    PAYSTACK_BASE_URL: fake.url,
    ESCROW_PAYOUT_POLL_MS: '100',
    ESCROW_PAYOUT_REQUERY_AFTER_MS: String(REQUERY_MS),
    ESCROW_PAYOUT_STUCK_AFTER_MS: '3000',
  });
  fake.setWebhookUrl(`${server.baseUrl}/v1/providers/paystack/webhook`);
}

const api = (method: string, path: string, body?: unknown, key: string | null = clientKey) => call(method, path, { key, body, baseUrl: server.baseUrl });
const operator = (path: string) => call('GET', path, { key: server.operatorKey, baseUrl: server.baseUrl });

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const wallet = async (userId: string) => expectOk(await api('GET', `/v1/wallets/${userId}`));
const payout = async (id: string) => PayoutRecord.parse(expectOk(await api('GET', `/v1/payouts/${id}`)));
const settled = (id: string, status: string) => until(`payout ${id}`, () => payout(id), (p) => p.status === status);
const transferPosts = (reference: string) => fake.requests.filter((r) => r.method === 'POST' && r.path === '/transfer' && (r.body as { reference?: string }).reference === reference.toLowerCase());

/** A live customer whose dedicated account has been opened and paid into with `naira`, and who has a saved account. */
async function fundedCustomer(naira: number) {
  const user = expectOk(await api('POST', '/v1/users', { first_name: 'Ngozi', last_name: 'Eze', email_address: `ngozi.${randomUUID()}@example.com` }));
  const opened = await until('dedicated account', () => wallet(user.id), (w) => w.pgA_provider_account_properties !== null);
  const account = opened.pgA_provider_account_properties;
  if (naira > 0) {
    await fake.creditDedicatedAccount({ accountNumber: account.account_number, amountKobo: naira * 100 });
    await until('funding', () => wallet(user.id), (w) => w.balance === naira);
  }
  fake.setAccountName('0016563228', 'NGOZI EZE');
  const saved = expectOk(await api('POST', '/v1/wallets/banks/disbursement', { user_id: user.id, account_number: '0016563228', bank_code: '058' }));
  return { user, account, saved };
}

async function expectLedgerBalanced() {
  const report = expectOk(await operator('/v1/operator/ledger/integrity'));
  expect(report).toMatchObject({ balanced: true, payouts_in_flight_not_matching: [], negative_accounts: [] });
}

beforeAll(async () => {
  fake = await startFakePaystack();
  store = await restartableStore();
  await startServer();
  clientKey = (await newVerifiedLiveClient(server)).secretKey;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await store?.remove();
  await fake?.close();
});

describe('live funding through a dedicated account (POST /customer, POST /dedicated_account, charge.success)', () => {
  it('opens each live customer a dedicated account, and credits a payment into it once however often Paystack says so', async () => {
    const user = expectOk(await api('POST', '/v1/users', { first_name: 'Tunde', last_name: 'Bello', email_address: `tunde.${randomUUID()}@example.com` }));
    const opened = await until('dedicated account', () => wallet(user.id), (w) => w.pgA_provider_account_properties !== null);
    const account = opened.pgA_provider_account_properties;
    expect(account).toMatchObject({ provider: 'paystack', account_number: expect.stringMatching(/^\d{10}$/), bank_name: expect.any(String), customer_code: expect.stringMatching(/^CUS_/) });
    expect(fake.customers.map((c) => c.customerCode)).toContain(account.customer_code);

    const credit = await fake.creditDedicatedAccount({ accountNumber: account.account_number, amountKobo: 1_250_000, times: 2 });
    expect(credit.answered).toEqual([200, 200]);
    await until('credit', () => wallet(user.id), (w) => w.balance === 12_500);
    const events = expectOk(await api('GET', '/v1/events?type=wallet.funded&limit=100')).events.filter((e: { data: { reference?: string } }) => e.data.reference === credit.reference);
    expect(events).toHaveLength(1);
    const history = expectOk(await api('GET', `/v1/wallets/${user.id}/history`)).entries;
    expect(history.map((e: { kind: string; amount: number }) => [e.kind, e.amount])).toEqual([['live_funding', 12_500]]);
    await expectLedgerBalanced();
  });

  it('refuses the sandbox top-up to a live key', async () => {
    const user = expectOk(await api('POST', '/v1/users', { first_name: 'Ada', last_name: 'Obi', email_address: `ada.${randomUUID()}@example.com` }));
    expectError(await api('POST', '/v1/wallets/fund', { user_id: user.id, amount: 100 }), 403, 'LIVE_MODE_FORBIDDEN');
  });
});

describe('name enquiry through GET /bank/resolve', () => {
  it('saves the bank’s name for the account, and says when the bank knows no such account', async () => {
    fake.setAccountName('0010246780', 'ADAEZE NWOSU');
    expect(expectOk(await api('POST', '/v1/wallets/banks/validate', { account_number: '0010246780', bank_code: '044' }))).toMatchObject({ account_name: 'ADAEZE NWOSU', bank_name: 'Access Bank' });
    fake.unknownAccount('1012854016');
    expectError(await api('POST', '/v1/wallets/banks/validate', { account_number: '1012854016', bank_code: '057' }), 400, 'INVALID_ACCOUNT_NUMBER');
    const { saved } = await fundedCustomer(0);
    expect(saved).toMatchObject({ account_name: 'NGOZI EZE', name_matches: true });
  });
});

describe('payouts through POST /transferrecipient and POST /transfer', () => {
  it('a transfer that succeeds: PENDING, then with Paystack, then PAID when transfer.success arrives; our reference sent once', async () => {
    fake.transferOutcome('success');
    const { user, saved } = await fundedCustomer(5_000);
    const created = PayoutRecord.parse(expectOk(await api('POST', '/v1/payouts', { user_id: user.id, amount: 1_200 })));
    expect(created).toMatchObject({ status: 'PENDING', provider: 'paystack', amount: 1_200 });
    expect((await wallet(user.id)).balance).toBe(3_800);
    const paid = await settled(created.id, 'PAID');
    expect(paid.provider_reference).toMatch(/^TRF_/);
    expect(transferPosts(created.reference)).toHaveLength(1);
    const posted = transferPosts(created.reference)[0]!.body as Record<string, unknown>;
    expect(posted).toMatchObject({ source: 'balance', amount: 120_000 });
    const recipient = fake.recipients.find((r) => r.recipientCode === posted.recipient);
    expect(recipient).toMatchObject({ accountNumber: '0016563228', bankCode: '058' });
    // The recipient is kept on the account and not made again.
    const again = PayoutRecord.parse(expectOk(await api('POST', '/v1/payouts', { user_id: user.id, amount: 100 })));
    await settled(again.id, 'PAID');
    expect(fake.requests.filter((r) => r.path === '/transferrecipient' && (r.body as { account_number?: string }).account_number === '0016563228')).toHaveLength(1);
    const list = expectOk(await api('GET', `/v1/wallets/banks/list?user_id=${user.id}`)).bank_accounts;
    expect(list[0]).toMatchObject({ id: saved.id, pgA_transfer_recipient: recipient!.recipientCode });
    expect((await wallet(user.id)).balance).toBe(3_700);
    await expectLedgerBalanced();
  });

  it('a transfer that fails: FAILED with Paystack’s reason, and the amount back in the wallet once', async () => {
    fake.transferOutcome({ status: 'failed', reason: 'Account is dormant' });
    const { user } = await fundedCustomer(2_000);
    const created = PayoutRecord.parse(expectOk(await api('POST', '/v1/payouts', { user_id: user.id, amount: 500 })));
    const failed = await settled(created.id, 'FAILED');
    expect(failed.failure_reason).toMatch(/dormant/);
    expect((await wallet(user.id)).balance).toBe(2_000);
    await expectLedgerBalanced();
  });

  it('a transfer reversed after success: PAID, then REVERSED, the amount back in the wallet', async () => {
    fake.transferOutcome('success');
    const { user } = await fundedCustomer(2_000);
    const created = PayoutRecord.parse(expectOk(await api('POST', '/v1/payouts', { user_id: user.id, amount: 700 })));
    await settled(created.id, 'PAID');
    expect((await wallet(user.id)).balance).toBe(1_300);
    await fake.reverse(created.reference, 'Beneficiary bank returned the funds');
    const reversed = await settled(created.id, 'REVERSED');
    expect(reversed.reversed_at).not.toBeNull();
    expect((await wallet(user.id)).balance).toBe(2_000);
    await expectLedgerBalanced();
  });

  it('a lost webhook: the requery job asks GET /transfer/verify/{reference} and settles it', async () => {
    fake.transferOutcome('success');
    fake.webhookDelivery('lose');
    try {
      const { user } = await fundedCustomer(1_000);
      const created = PayoutRecord.parse(expectOk(await api('POST', '/v1/payouts', { user_id: user.id, amount: 400 })));
      await settled(created.id, 'PAID');
      expect(fake.requests.some((r) => r.path === `/transfer/verify/${created.reference.toLowerCase()}`)).toBe(true);
      expect(fake.webhooks.filter((w) => w.reference === created.reference.toLowerCase()).map((w) => w.answered)).toEqual(['lost']);
      await expectLedgerBalanced();
    } finally {
      fake.webhookDelivery('send');
    }
  });

  it('a webhook that arrives twice changes things once', async () => {
    fake.transferOutcome('success');
    fake.webhookDelivery('twice');
    try {
      const { user } = await fundedCustomer(1_000);
      const created = PayoutRecord.parse(expectOk(await api('POST', '/v1/payouts', { user_id: user.id, amount: 300 })));
      await settled(created.id, 'PAID');
      await fake.idle();
      expect(fake.webhooks.filter((w) => w.reference === created.reference.toLowerCase()).map((w) => w.answered)).toEqual([200, 200]);
      const paidEvents = expectOk(await api('GET', '/v1/events?type=payout.paid&limit=100')).events.filter((e: { data: { payout: { id: string } } }) => e.data.payout.id === created.id);
      expect(paidEvents).toHaveLength(1);
      expect((await wallet(user.id)).balance).toBe(700);
      await expectLedgerBalanced();
    } finally {
      fake.webhookDelivery('send');
    }
  });

  it('a forged signature is 401 and changes nothing', async () => {
    fake.transferOutcome('pending');
    const { user } = await fundedCustomer(1_000);
    const created = PayoutRecord.parse(expectOk(await api('POST', '/v1/payouts', { user_id: user.id, amount: 250 })));
    await settled(created.id, 'PROCESSING');
    const forged = { event: 'transfer.failed', data: { reference: created.reference.toLowerCase(), transfer_code: 'TRF_forged', amount: 25_000, currency: 'NGN', status: 'failed' } };
    expect(await fake.sendForged(forged)).toBe(401);
    const unsigned = await call('POST', '/v1/providers/paystack/webhook', { body: forged, baseUrl: server.baseUrl });
    expectError(unsigned, 401, 'UNAUTHORIZED');
    expect((await payout(created.id)).status).toBe('PROCESSING');
    expect((await wallet(user.id)).balance).toBe(750);
    await fake.completeTransfer(created.reference, 'success');
    await settled(created.id, 'PAID');
  });

  // A restart of the server inside the test: on a busy two-core machine that alone can take half a minute.
  it('a server killed between Paystack receiving the transfer and our recording its answer pays once, after restart', async () => {
    fake.transferOutcome('success');
    const { user } = await fundedCustomer(1_000);
    const hold = fake.holdTransfers();
    const created = PayoutRecord.parse(expectOk(await api('POST', '/v1/payouts', { user_id: user.id, amount: 600 })));
    const received = await hold.transferReceived;
    expect(received.reference).toBe(created.reference.toLowerCase());
    server.process.kill('SIGKILL');
    await new Promise((resolve) => server.process.once('exit', resolve));
    hold.release();
    await startServer();
    const paid = await settled(created.id, 'PAID', );
    expect(paid.amount).toBe(600);
    expect(transferPosts(created.reference)).toHaveLength(1);
    expect((await wallet(user.id)).balance).toBe(400);
    await expectLedgerBalanced();
  }, 90_000);

  it('a live payout with too little in the wallet is 409 and sends nothing', async () => {
    const { user } = await fundedCustomer(100);
    const before = fake.requests.length;
    expectError(await api('POST', '/v1/payouts', { user_id: user.id, amount: 100.01 }), 409, 'INSUFFICIENT_FUNDS');
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.requests.slice(before).filter((r) => r.path === '/transfer')).toEqual([]);
  });
});

describe('GET /v1/operator/reconciliation', () => {
  it('lists each kind of mismatch: stuck PROCESSING, a provider outcome with no ledger transfer, a ledger transfer with no provider outcome', async () => {
    // A provider outcome for a reference that is none of ours, and a payment into an account that is no customer's.
    const stranger = `po_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
    expect(await fake.sendEvent({ event: 'transfer.success', data: { reference: stranger, transfer_code: 'TRF_stranger1', amount: 99_900, currency: 'NGN', status: 'success' } })).toBe(200);
    const unknownCustomer = {
      event: 'charge.success',
      data: { status: 'success', reference: `T${Date.now()}`, amount: 50_000, currency: 'NGN', channel: 'dedicated_nuban', paid_at: new Date().toISOString(), customer: { customer_code: 'CUS_nobodyknows1' }, authorization: { channel: 'dedicated_nuban' } },
    };
    expect(await fake.sendEvent(unknownCustomer)).toBe(200);

    // A payout stuck at Paystack: pending, its webhook never comes, and every requery says pending.
    fake.transferOutcome('pending');
    const { user } = await fundedCustomer(1_000);
    const stuck = PayoutRecord.parse(expectOk(await api('POST', '/v1/payouts', { user_id: user.id, amount: 100 })));
    await settled(stuck.id, 'PROCESSING');

    // A paid payout whose provider outcome is lost from our records (as an operator's manual edit would).
    fake.transferOutcome('success');
    const paid = PayoutRecord.parse(expectOk(await api('POST', '/v1/payouts', { user_id: user.id, amount: 200 })));
    await settled(paid.id, 'PAID');
    await server.stop();
    await store.query(`delete from provider_events where payout_id = $1`, [paid.id]);
    await startServer();

    // Stuck needs ESCROW_PAYOUT_STUCK_AFTER_MS (3 s here) to pass.
    await new Promise((r) => setTimeout(r, 3200));
    const report = expectOk(await operator('/v1/operator/reconciliation'));
    expect(report.reconciled).toBe(false);
    const kinds = (kind: string) => report.mismatches.filter((m: { kind: string }) => m.kind === kind);
    expect(kinds('stuck_processing').map((m: { payout_id: string }) => m.payout_id)).toContain(stuck.id);
    expect(kinds('outcome_without_transfer').map((m: { reference: string }) => m.reference)).toEqual(expect.arrayContaining([stranger.toUpperCase(), unknownCustomer.data.reference]));
    expect(kinds('transfer_without_outcome').map((m: { payout_id: string }) => m.payout_id)).toContain(paid.id);
    expectError(await operator('/v1/operator/reconciliation?from=2026-12-01T00:00:00Z&to=2026-11-01T00:00:00Z'), 400, 'VALIDATION_ERROR');
    expectError(await operator('/v1/operator/reconciliation?from=yesterday'), 400, 'VALIDATION_ERROR');
    await fake.completeTransfer(stuck.reference, 'success');
    await settled(stuck.id, 'PAID');
    // It restarts the server: minutes on a busy machine, not the 30 s of a test that only sends requests.
  }, 120_000);
});
