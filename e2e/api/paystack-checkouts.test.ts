/**
 * Card checkouts through Paystack (docs/decisions.md §16), over HTTP, against the Paystack-compatible server on loopback
 * (e2e/support/fake-paystack.ts). What the adapter relies on, from Paystack's reference:
 * - POST /transaction/initialize takes `{email, amount (kobo), reference, callback_url, metadata}` and answers
 *   `data: {authorization_url, access_code, reference}` (https://paystack.com/docs/api/transaction/#initialize);
 *   `reference`: "Only -, ., = and alphanumeric characters allowed", so CO_… goes as CO-….
 * - The hosted page sends the buyer back to `callback_url` with `trxref` and `reference` in the query
 *   (https://paystack.com/docs/payments/verify-payments/: "The transaction reference is returned as a query parameter to
 *   your callback URL").
 * - GET /transaction/verify/:reference answers `data: {status: "success" | "failed" | "abandoned" | …, reference, amount,
 *   paid_at, channel, currency, gateway_response}`.
 * - charge.success carries the same transaction object (`data.reference`, `data.amount`, `data.paid_at`, `data.channel`),
 *   signed in `x-paystack-signature` (HMAC-SHA512 of the body with the secret key,
 *   https://paystack.com/docs/payments/webhooks/); `channel: "dedicated_nuban"` stays wallet funding (§12).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutRecord } from '@/lib/contracts/checkouts';
import { startFakePaystack, type FakePaystack } from '../support/fake-paystack';
import type { TestServer } from '../support/test-server';
import { restartableStore, type RestartableStore } from './support/restartable-store';
import { call, expectError, expectOk, newVerifiedLiveClient } from './support/api';

let fake: FakePaystack;
let store: RestartableStore;
let server: TestServer;
let clientKey: string;

const VERIFY_AFTER_MS = 1500;
const SHOP = 'https://shop.example.com/paid';

const api = (method: string, path: string, body?: unknown, key: string | null = clientKey) => call(method, path, { key, body, baseUrl: server.baseUrl });

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const checkout = async (id: string) => CheckoutRecord.parse(expectOk(await api('GET', `/v1/checkouts/${id}`)));
const balance = async (userId: string) => expectOk(await api('GET', `/v1/wallets/${userId}`)).balance as number;
const theirs = (reference: string) => reference.replace(/^CO_/, 'CO-');

async function expectLedgerBalanced() {
  const report = expectOk(await call('GET', '/v1/operator/ledger/integrity', { key: server.operatorKey, baseUrl: server.baseUrl }));
  expect(report).toMatchObject({ balanced: true, negative_accounts: [] });
}

async function buyer() {
  return expectOk(await api('POST', '/v1/users', { first_name: 'Chiamaka', last_name: 'Obi', email_address: `chiamaka.${randomUUID()}@example.com` }));
}

async function start(body: Record<string, unknown>) {
  return CheckoutRecord.parse(expectOk(await api('POST', '/v1/checkouts', body)));
}

/** The buyer's browser on the hosted page: Pay or Decline, then where Paystack sends it (our page, with trxref and reference). */
async function onHostedPage(created: CheckoutRecord, choice: 'pay' | 'decline'): Promise<URL> {
  const answer = await fetch(`${created.authorization_url}/${choice}`, { method: 'POST', redirect: 'manual' });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location')!);
}

beforeAll(async () => {
  fake = await startFakePaystack();
  store = await restartableStore();
  server = await store.start({
    ESCROW_PAYMENT_PROVIDER: 'paystack',
    PAYSTACK_SECRET_KEY: fake.secretKey,
    PAYSTACK_BASE_URL: fake.url,
    ESCROW_PAYOUT_POLL_MS: '100',
    ESCROW_CHECKOUT_VERIFY_AFTER_MS: String(VERIFY_AFTER_MS),
  });
  fake.setWebhookUrl(`${server.baseUrl}/v1/providers/paystack/webhook`);
  clientKey = (await newVerifiedLiveClient(server)).secretKey;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await store?.remove();
  await fake?.close();
});

describe('a live checkout through Paystack', () => {
  it('initializes a Paystack transaction and is paid by its charge.success: the milestone is funded, and the buyer goes back to callback_url', async () => {
    const user = await buyer();
    const seller = await buyer();
    const deal = expectOk(
      await api('POST', '/v1/transactions', {
        title: 'Tailored suits',
        description: 'Two suits',
        buyer_id: user.id,
        seller_id: seller.id,
        milestones: [{ title: 'First suit', description: 'Cut and sewn', amount: 1500, due_date: new Date(Date.now() + 10 * 86_400_000).toISOString() }],
      }),
    );
    const milestoneId = deal.milestones[0].id as string;
    const created = await start({ buyer_id: user.id, milestone_id: milestoneId, callback_url: SHOP, metadata: { order: 'S-7' } });
    expect(created).toMatchObject({ provider: 'paystack', status: 'PENDING', purpose: 'milestone', amount: 1500 });
    expect(created.authorization_url).toMatch(new RegExp(`^${fake.url}/checkout/[0-9a-f]+$`));
    const init = fake.requests.find((r) => r.method === 'POST' && r.path === '/transaction/initialize' && (r.body as { reference?: string }).reference === theirs(created.reference));
    expect(init?.body).toMatchObject({
      email: expect.stringContaining('@'),
      amount: 150_000,
      reference: theirs(created.reference),
      callback_url: `${server.baseUrl}/checkout/${created.reference}`,
      metadata: { order: 'S-7', checkout_reference: created.reference },
    });

    const back = await onHostedPage(created, 'pay');
    expect(back.toString()).toBe(`${server.baseUrl}/checkout/${created.reference}?trxref=${theirs(created.reference)}&reference=${theirs(created.reference)}`);
    const paid = await until('paid', () => checkout(created.id), (c) => c.status === 'PAID');
    expect(paid).toMatchObject({ applied: true, channel: 'card', not_applied_reason: null });
    expect(expectOk(await api('GET', `/v1/milestones/${milestoneId}`)).status).toBe('IN_PROGRESS');
    expect(await balance(user.id)).toBe(0);
    // Our page, reached with Paystack's trxref, sends the buyer on to the merchant's callback_url with our reference.
    const returned = await fetch(back, { redirect: 'manual' });
    expect([302, 303, 307]).toContain(returned.status);
    expect(returned.headers.get('location')).toBe(`${SHOP}?reference=${created.reference}`);
    await expectLedgerBalanced();
  });

  it('the same charge.success twice credits once', async () => {
    const user = await buyer();
    const created = await start({ buyer_id: user.id, amount: 2000 });
    fake.webhookDelivery('twice', theirs(created.reference));
    const answered = await fake.payTransaction(theirs(created.reference));
    expect(answered).toEqual([200, 200]);
    await until('paid', () => checkout(created.id), (c) => c.status === 'PAID');
    // A verify after the webhooks (the buyer coming back) finds it paid and changes nothing either.
    expect((await fetch(`${server.baseUrl}/checkout/${created.reference}`)).status).toBe(200);
    expect(await balance(user.id)).toBe(2000);
    const history = expectOk(await api('GET', `/v1/wallets/${user.id}/history`)).entries;
    expect(history).toHaveLength(1);
    const events = expectOk(await api('GET', '/v1/events?type=checkout.paid&limit=100')).events.filter((e: { data: { checkout: { id: string } } }) => e.data.checkout.id === created.id);
    expect(events).toHaveLength(1);
    await expectLedgerBalanced();
  });

  it('a forged charge.success is 401 and changes nothing', async () => {
    const user = await buyer();
    const created = await start({ buyer_id: user.id, amount: 300 });
    const event = fake.chargeSuccessEvent(theirs(created.reference)) as { event: string; data: Record<string, unknown> };
    const forged = { ...event, data: { ...event.data, status: 'success', paid_at: new Date().toISOString() } };
    expect(await fake.sendForged(forged)).toBe(401);
    expect((await checkout(created.id)).status).toBe('PENDING');
    expect(await balance(user.id)).toBe(0);
    await expectLedgerBalanced();
  });

  it('a lost webhook is recovered by GET /transaction/verify when the buyer comes back', async () => {
    const user = await buyer();
    const created = await start({ buyer_id: user.id, amount: 450, callback_url: SHOP });
    fake.webhookDelivery('lose', theirs(created.reference));
    const back = await onHostedPage(created, 'pay');
    expect(fake.webhooks.filter((w) => w.reference === theirs(created.reference)).map((w) => w.answered)).toEqual(['lost']);
    const returned = await fetch(back, { redirect: 'manual' });
    expect(returned.headers.get('location')).toBe(`${SHOP}?reference=${created.reference}`);
    expect(await checkout(created.id)).toMatchObject({ status: 'PAID', applied: true });
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/transaction/verify/${theirs(created.reference)}`)).toBe(true);
    expect(await balance(user.id)).toBe(450);
    await expectLedgerBalanced();
  });

  it('a lost webhook with a buyer who never comes back is recovered by the verify runner once the checkout is due', async () => {
    const user = await buyer();
    const created = await start({ buyer_id: user.id, amount: 600 });
    fake.webhookDelivery('lose', theirs(created.reference));
    await fake.payTransaction(theirs(created.reference));
    const paid = await until('verified', () => checkout(created.id), (c) => c.status === 'PAID');
    expect(paid.applied).toBe(true);
    expect(await balance(user.id)).toBe(600);
    await expectLedgerBalanced();
  });

  it('a decline fails the checkout (verify on return); a later successful charge still credits the wallet, PAID with applied false', async () => {
    const user = await buyer();
    const created = await start({ buyer_id: user.id, amount: 800 });
    const back = await onHostedPage(created, 'decline');
    expect((await fetch(back)).status).toBe(200);
    const failed = await checkout(created.id);
    expect(failed).toMatchObject({ status: 'FAILED', failure_reason: 'Declined' });
    // The buyer tries another card on the same Paystack page: the money arrives.
    await fake.payTransaction(theirs(created.reference));
    const paid = await until('paid after failing', () => checkout(created.id), (c) => c.status === 'PAID');
    expect(paid.applied).toBe(false);
    expect(paid.not_applied_reason).toMatch(/failed/);
    expect(await balance(user.id)).toBe(800);
    await expectLedgerBalanced();
  });

  it('a payment made after the checkout expired is credited with applied false', async () => {
    const user = await buyer();
    const created = await start({ buyer_id: user.id, amount: 900 });
    // Paystack says when the payment happened (paid_at): a minute after our 30 minutes ran out.
    await fake.payTransaction(theirs(created.reference), 'send', 'bank', new Date(Date.parse(created.expires_at) + 60_000).toISOString());
    const paid = await until('paid after expiry', () => checkout(created.id), (c) => c.status === 'PAID');
    expect(paid).toMatchObject({ applied: false, channel: 'bank', expired_at: created.expires_at });
    expect(paid.not_applied_reason).toMatch(/expired/);
    expect(await balance(user.id)).toBe(900);
    await expectLedgerBalanced();
  });

  it('a charge.success for a reference that is no checkout of ours credits nothing', async () => {
    const user = await buyer();
    const created = await start({ buyer_id: user.id, amount: 100 });
    const event = fake.chargeSuccessEvent(theirs(created.reference)) as { event: string; data: Record<string, unknown> };
    expect(await fake.sendEvent({ ...event, data: { ...event.data, status: 'success', reference: 'CO-ZZZZZZZZZZZZZZZZZZZZ', paid_at: new Date().toISOString() } })).toBe(200);
    expect((await checkout(created.id)).status).toBe('PENDING');
    expect(await balance(user.id)).toBe(0);
    expectError(await api('POST', `/v1/test-helpers/checkouts/${created.id}/pay`), 403, 'LIVE_MODE_FORBIDDEN');
    // Reconciliation lists it as a provider outcome without a ledger transfer; every checkout credit above has its outcome.
    const report = expectOk(await call('GET', '/v1/operator/reconciliation', { key: server.operatorKey, baseUrl: server.baseUrl }));
    const mismatches = report.mismatches as Array<{ kind: string; reference: string }>;
    expect(mismatches.filter((m) => m.kind === 'outcome_without_transfer').map((m) => m.reference)).toContain('CO_ZZZZZZZZZZZZZZZZZZZZ');
    expect(mismatches.filter((m) => m.kind === 'transfer_without_outcome')).toEqual([]);
    await expectLedgerBalanced();
  });

  it('a charge.success of another amount than the checkout’s credits nothing and is kept for reconciliation', async () => {
    const user = await buyer();
    const created = await start({ buyer_id: user.id, amount: 100 });
    const event = fake.chargeSuccessEvent(theirs(created.reference)) as { event: string; data: Record<string, unknown> };
    expect(event.data.amount).toBe(10_000);
    expect(await fake.sendEvent({ ...event, data: { ...event.data, status: 'success', amount: 1_000, paid_at: new Date().toISOString() } })).toBe(200);
    expect((await checkout(created.id)).status).toBe('PENDING');
    expect(await balance(user.id)).toBe(0);
    const report = expectOk(await call('GET', '/v1/operator/reconciliation', { key: server.operatorKey, baseUrl: server.baseUrl }));
    const kept = (report.mismatches as Array<{ kind: string; reference: string; amount?: number }>).filter((m) => m.reference === created.reference);
    expect(kept.map((m) => [m.kind, m.amount])).toEqual([['outcome_without_transfer', 10]]);
    await expectLedgerBalanced();
  });
});
