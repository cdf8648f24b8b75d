/**
 * Paying by card in the sandbox (docs/decisions.md §16), over HTTP: a checkout is PENDING until its page's Pay or
 * Decline (or the test helpers, which do the same), or until 30 minutes pass on the client's clock; a payment
 * credits the buyer's wallet once and funds the milestone when it still can be funded.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CheckoutListRecord, CheckoutRecord } from '@/lib/contracts/checkouts';
import { baseUrl, call, expectError, expectLedgerBalanced, expectOk, newClient, newDeal, newVerifiedLiveClient, newUser, operatorKey, uploadProof, walletBalance, type TestClient } from './support/api';

const RETURN = 'http://127.0.0.1:9/shop/return';

function create(client: TestClient, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return call('POST', '/v1/checkouts', { key: client.secretKey, body, headers });
}

async function checkout(client: TestClient, body: Record<string, unknown>) {
  return CheckoutRecord.parse(expectOk(await create(client, body)));
}

async function getCheckout(client: TestClient, id: string) {
  return CheckoutRecord.parse(expectOk(await call('GET', `/v1/checkouts/${id}`, { key: client.secretKey })));
}

const pay = (client: TestClient, id: string) => call('POST', `/v1/test-helpers/checkouts/${id}/pay`, { key: client.secretKey });
const fail = (client: TestClient, id: string, body: Record<string, unknown> = {}) => call('POST', `/v1/test-helpers/checkouts/${id}/fail`, { key: client.secretKey, body });

async function eventsOf(client: TestClient, type: string) {
  const data = expectOk(await call('GET', `/v1/events?type=${type}&limit=100`, { key: client.secretKey }));
  return data.events as Array<{ type: string; data: { checkout: { id: string; status: string; applied: boolean | null } } }>;
}

async function milestone(client: TestClient, id: string) {
  return expectOk(await call('GET', `/v1/milestones/${id}`, { key: client.secretKey }));
}

describe('a checkout that adds money to the wallet', () => {
  it('is PENDING with its own payment page, expires 30 minutes after creation, and once paid credits the wallet exactly once', async () => {
    const client = await newClient();
    const buyer = await newUser(client, 'Buyer');
    const created = await checkout(client, { buyer_id: buyer.id, amount: 2500.5, callback_url: RETURN, metadata: { order: 'A-1042' } });
    expect(created).toMatchObject({
      user_id: buyer.id,
      purpose: 'wallet',
      milestone_id: null,
      transaction_id: null,
      amount: 2500.5,
      currency: 'NGN',
      status: 'PENDING',
      callback_url: RETURN,
      applied: null,
      not_applied_reason: null,
      failure_reason: null,
      provider: 'sandbox',
      metadata: { order: 'A-1042' },
      paid_at: null,
      failed_at: null,
      expired_at: null,
    });
    expect(created.reference).toMatch(/^CO_[A-Z0-9]{20}$/);
    expect(created.authorization_url).toBe(`${baseUrl()}/checkout/${created.reference}`);
    expect(Date.parse(created.expires_at) - Date.parse(created.created_at)).toBe(30 * 60_000);
    expect(await walletBalance(client, buyer.id)).toBe(0);

    const paid = CheckoutRecord.parse(expectOk(await pay(client, created.id)));
    expect(paid).toMatchObject({ status: 'PAID', applied: true, not_applied_reason: null, channel: 'card' });
    expect(paid.paid_at).not.toBeNull();
    expect(await walletBalance(client, buyer.id)).toBe(2500.5);
    // Paid once: the helpers refuse a second payment and a failure, and the wallet holds the one credit.
    expectError(await pay(client, created.id), 409, 'INVALID_STATE', /PAID/);
    expectError(await fail(client, created.id), 409, 'INVALID_STATE', /PAID/);
    expect(await walletBalance(client, buyer.id)).toBe(2500.5);
    expect(await getCheckout(client, created.id)).toEqual(paid);

    const history = expectOk(await call('GET', `/v1/wallets/${buyer.id}/history?limit=10`, { key: client.secretKey }));
    expect(history.entries).toHaveLength(1);
    expect((await eventsOf(client, 'checkout.paid')).map((e) => [e.data.checkout.id, e.data.checkout.status, e.data.checkout.applied])).toEqual([[created.id, 'PAID', true]]);
    await expectLedgerBalanced();
  });

  it('Decline (the fail helper) makes it FAILED with the reason; nothing moves, and it can no longer be paid in the sandbox', async () => {
    const client = await newClient();
    const buyer = await newUser(client, 'Buyer');
    const created = await checkout(client, { buyer_id: buyer.id, amount: 100 });
    const failed = CheckoutRecord.parse(expectOk(await fail(client, created.id, { reason: 'Card declined by the issuer' })));
    expect(failed).toMatchObject({ status: 'FAILED', failure_reason: 'Card declined by the issuer', applied: null, paid_at: null });
    expect(failed.failed_at).not.toBeNull();
    expectError(await pay(client, created.id), 409, 'INVALID_STATE', /FAILED/);
    expectError(await fail(client, created.id), 409, 'INVALID_STATE');
    expect(await walletBalance(client, buyer.id)).toBe(0);
    expect((await eventsOf(client, 'checkout.failed')).map((e) => [e.data.checkout.id, e.data.checkout.status])).toEqual([[created.id, 'FAILED']]);
    await expectLedgerBalanced();
  });

  it('expires 30 minutes after creation on the client’s test clock (checkout.expired), and an expired one cannot be paid or failed', async () => {
    const client = await newClient();
    const buyer = await newUser(client, 'Buyer');
    const created = await checkout(client, { buyer_id: buyer.id, amount: 100 });
    expectOk(await call('POST', '/v1/test-clock/advance', { key: client.secretKey, body: { seconds: 29 * 60 } }));
    expect((await getCheckout(client, created.id)).status).toBe('PENDING');
    expectOk(await call('POST', '/v1/test-clock/advance', { key: client.secretKey, body: { seconds: 61 } }));
    const expired = await getCheckout(client, created.id);
    expect(expired).toMatchObject({ status: 'EXPIRED', expired_at: created.expires_at, paid_at: null, applied: null });
    expect((await eventsOf(client, 'checkout.expired')).map((e) => [e.data.checkout.id, e.data.checkout.status])).toEqual([[created.id, 'EXPIRED']]);
    expectError(await pay(client, created.id), 409, 'INVALID_STATE', /EXPIRED/);
    expectError(await fail(client, created.id), 409, 'INVALID_STATE', /EXPIRED/);
    const list = CheckoutListRecord.parse(expectOk(await call('GET', `/v1/checkouts?status=EXPIRED&user_id=${buyer.id}`, { key: client.secretKey })));
    expect(list.checkouts.map((c) => c.id)).toEqual([created.id]);
    expect(await walletBalance(client, buyer.id)).toBe(0);
    await expectLedgerBalanced();
  });
});

describe('a checkout that funds a milestone', () => {
  it('charges the funding amount and, once paid, funds the milestone exactly as POST /v1/milestones/{id}/fund does', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000, 500], { commission_payer: 'BUYER_100' });
    const [first] = deal.milestoneIds;
    const before = await milestone(client, first!);
    const created = await checkout(client, { buyer_id: deal.buyer.id, milestone_id: first, callback_url: 'https://shop.example.com/paid' });
    // The buyer pays the milestone and its whole fee: the amount funding would move.
    expect(created).toMatchObject({ purpose: 'milestone', milestone_id: first, transaction_id: deal.transaction.id, status: 'PENDING' });
    expect(before.milestone_fee).toBeGreaterThan(0);
    expect(created.amount).toBe(1000 + before.milestone_fee);

    const paid = CheckoutRecord.parse(expectOk(await pay(client, created.id)));
    expect(paid).toMatchObject({ status: 'PAID', applied: true, not_applied_reason: null });
    const after = await milestone(client, first!);
    expect(before.status).toBe('PENDING_FUNDING');
    expect(after.status).toBe('IN_PROGRESS');
    expect(after.is_milestone_funded).toBe(true);
    // The money went through the wallet into escrow: nothing is left over.
    expect(await walletBalance(client, deal.buyer.id)).toBe(0);
    expect((await eventsOf(client, 'milestone.funded')).length).toBe(1);
    await expectLedgerBalanced();
  });

  it('a milestone funded from the wallet meanwhile: the payment is PAID with applied false, and the money stays in the wallet', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000], { walletFunds: 1000 });
    const [first] = deal.milestoneIds;
    const created = await checkout(client, { buyer_id: deal.buyer.id, milestone_id: first });
    expect(created.amount).toBe(1000);
    expectOk(await call('POST', `/v1/milestones/${first}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));
    expect(await walletBalance(client, deal.buyer.id)).toBe(0);

    const paid = CheckoutRecord.parse(expectOk(await pay(client, created.id)));
    expect(paid.status).toBe('PAID');
    expect(paid.applied).toBe(false);
    expect(paid.not_applied_reason).toMatch(/\S/);
    expect(await walletBalance(client, deal.buyer.id)).toBe(1000);
    expect((await milestone(client, first!)).status).toBe('IN_PROGRESS');
    expect((await eventsOf(client, 'milestone.funded')).length).toBe(1);
    await expectLedgerBalanced();
  });

  it('a milestone that cannot be funded now is refused as funding refuses it, and nothing is made', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000, 500], { walletFunds: 1000 });
    const [first, second] = deal.milestoneIds;
    const stranger = await newUser(client, 'Stranger');
    // The second milestone waits for the first.
    expectError(await create(client, { buyer_id: deal.buyer.id, milestone_id: second }), 409, 'INVALID_STATE');
    // Only the buyer pays for its milestones.
    expectError(await create(client, { buyer_id: deal.seller.id, milestone_id: first }), 403, 'WRONG_PARTY');
    expectError(await create(client, { buyer_id: stranger.id, milestone_id: first }), 403, 'WRONG_PARTY');
    expectError(await create(client, { buyer_id: deal.buyer.id, milestone_id: randomUUID() }), 404, 'NOT_FOUND');
    expectError(await create(client, { buyer_id: randomUUID(), amount: 10 }), 404, 'NOT_FOUND');
    expectOk(await call('POST', `/v1/milestones/${first}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));
    expectError(await create(client, { buyer_id: deal.buyer.id, milestone_id: first }), 409, 'INVALID_STATE');
    // A milestone of a transaction that has ended is not paid for.
    const canceled = await newDeal(client, [700]);
    expectOk(await call('POST', `/v1/transactions/${canceled.transaction.id}/cancel`, { key: client.secretKey, body: { buyer_id: canceled.buyer.id, reason: 'Plans changed' } }));
    expectError(await create(client, { buyer_id: canceled.buyer.id, milestone_id: canceled.milestoneIds[0] }), 409, 'INVALID_STATE', /ended|cancel/i);
    expect(CheckoutListRecord.parse(expectOk(await call('GET', '/v1/checkouts', { key: client.secretKey }))).checkouts).toEqual([]);
    await expectLedgerBalanced();
  });
  it('a Pay racing a test-clock move that settles its transaction’s deadlines and expires it: each answers, never a 500', async () => {
    // The move locks the transaction for its lapse, then the checkout to expire it; Pay takes the same two in the same order.
    const client = await newClient();
    const rounds = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const deal = await newDeal(client, [1000, 500], { walletFunds: 1000 });
        const [first, second] = deal.milestoneIds;
        expectOk(await call('POST', `/v1/milestones/${first}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));
        const proof = await uploadProof(client);
        expectOk(await call('POST', `/v1/milestones/${first}/deliver`, { key: client.secretKey, body: { seller_id: deal.seller.id, proofs_of_completion: [proof] } }));
        return { deal, pending: await checkout(client, { buyer_id: deal.buyer.id, milestone_id: second }) };
      }),
    );
    const [moved, ...paid] = await Promise.all([
      call('POST', '/v1/test-clock/advance', { key: client.secretKey, body: { days: 4 } }),
      ...rounds.map((r) => pay(client, r.pending.id)),
    ]);
    expect(moved.status).toBe(200);
    for (const [i, answer] of paid.entries()) {
      // Paid before the move committed, or found EXPIRED after it: either way an answer, and the checkout agrees.
      expect([200, 409]).toContain(answer.status);
      expect((await getCheckout(client, rounds[i]!.pending.id)).status).toBe(answer.status === 200 ? 'PAID' : 'EXPIRED');
    }
    await expectLedgerBalanced();
  });
});

describe('POST /v1/checkouts input', () => {
  it('refuses both or neither of milestone_id and amount, bad amounts and metadata, and a callback_url that is not https (or http to this machine)', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000]);
    const buyer_id = deal.buyer.id;
    const refused = async (body: Record<string, unknown>, field: string) => {
      const error = expectError(await create(client, body), 400, 'VALIDATION_ERROR');
      expect(error.errors?.map((e) => e.field)).toContain(field);
    };
    await refused({ buyer_id, amount: 10, milestone_id: deal.milestoneIds[0] }, 'amount');
    await refused({ buyer_id }, 'amount');
    await refused({ amount: 10 }, 'buyer_id');
    for (const amount of [0, -5, 0.001, 'ten']) await refused({ buyer_id, amount }, 'amount');
    for (const callback_url of ['http://shop.example.com/paid', 'ftp://example.com/x', 'javascript:alert(1)', 'not a url', 'http://10.0.0.1/paid']) {
      await refused({ buyer_id, amount: 10, callback_url }, 'callback_url');
    }
    await refused({ buyer_id, amount: 10, metadata: { order: 42 } }, 'metadata.order');
    await refused({ buyer_id, amount: 10, metadata: 'order' }, 'metadata');
    // https anywhere and plain http to this machine are fine with test keys.
    for (const callback_url of ['https://shop.example.com/paid?x=1', 'http://localhost:3000/paid', RETURN]) expectOk(await create(client, { buyer_id, amount: 10, callback_url }));
    // An unknown field is refused, as by every operation (unknown-fields.test.ts): no checkout is made of it.
    const before = CheckoutListRecord.parse(expectOk(await call('GET', '/v1/checkouts', { key: client.secretKey }))).pagination.total;
    const unknown = expectError(await create(client, { buyer_id, amount: 10, colour: 'red' }), 400, 'UNKNOWN_FIELD', /colour/);
    expect(unknown.errors).toEqual([{ field: 'colour', message: 'is not a field of this request' }]);
    expect(CheckoutListRecord.parse(expectOk(await call('GET', '/v1/checkouts', { key: client.secretKey }))).pagination.total).toBe(before);
  });

  it('honours Idempotency-Key: the same request again answers the same checkout', async () => {
    const client = await newClient();
    const buyer = await newUser(client, 'Buyer');
    const key = randomUUID();
    const first = CheckoutRecord.parse(expectOk(await create(client, { buyer_id: buyer.id, amount: 50 }, { 'idempotency-key': key })));
    const again = CheckoutRecord.parse(expectOk(await create(client, { buyer_id: buyer.id, amount: 50 }, { 'idempotency-key': key })));
    expect(again.id).toBe(first.id);
    expect(CheckoutListRecord.parse(expectOk(await call('GET', '/v1/checkouts', { key: client.secretKey }))).checkouts).toHaveLength(1);
  });

  it('a live client on a server without a payment provider gets 409 PROVIDER_NOT_CONFIGURED, and the test helpers are for test keys', async () => {
    const live = await newVerifiedLiveClient();
    const user = await newUser(live);
    expectError(await create(live, { buyer_id: user.id, amount: 10 }), 409, 'PROVIDER_NOT_CONFIGURED', /ESCROW_PAYMENT_PROVIDER/);
    expectError(await pay(live, randomUUID()), 403, 'LIVE_MODE_FORBIDDEN');
    expectError(await fail(live, randomUUID()), 403, 'LIVE_MODE_FORBIDDEN');
    expect(CheckoutListRecord.parse(expectOk(await call('GET', '/v1/checkouts', { key: live.secretKey }))).checkouts).toEqual([]);
  });
});

describe('reading checkouts', () => {
  it('lists newest first with the user list’s pagination, filtered by user and status', async () => {
    const client = await newClient();
    const ada = await newUser(client, 'Ada');
    const bola = await newUser(client, 'Bola');
    const a1 = await checkout(client, { buyer_id: ada.id, amount: 10 });
    const b1 = await checkout(client, { buyer_id: bola.id, amount: 20 });
    const a2 = await checkout(client, { buyer_id: ada.id, amount: 30 });
    expectOk(await pay(client, a2.id));
    const all = CheckoutListRecord.parse(expectOk(await call('GET', '/v1/checkouts?limit=2', { key: client.secretKey })));
    expect(all.checkouts.map((c) => c.id)).toEqual([a2.id, b1.id]);
    expect(all.pagination).toMatchObject({ page: 1, limit: 2, total: 3, nextPage: 2, hasNextPage: true });
    const next = CheckoutListRecord.parse(expectOk(await call('GET', '/v1/checkouts?limit=2&page=2', { key: client.secretKey })));
    expect(next.checkouts.map((c) => c.id)).toEqual([a1.id]);
    const adas = CheckoutListRecord.parse(expectOk(await call('GET', `/v1/checkouts?user_id=${ada.id}&status=PENDING`, { key: client.secretKey })));
    expect(adas.checkouts.map((c) => c.id)).toEqual([a1.id]);
    expectError(await call('GET', '/v1/checkouts?status=DONE', { key: client.secretKey }), 400, 'VALIDATION_ERROR');
    await expectLedgerBalanced();
  });

  it('another client’s checkout is 404, to read and to the test helpers, and stays as it was', async () => {
    const client = await newClient();
    const stranger = await newClient();
    const buyer = await newUser(client, 'Buyer');
    const created = await checkout(client, { buyer_id: buyer.id, amount: 10 });
    expectError(await call('GET', `/v1/checkouts/${created.id}`, { key: stranger.secretKey }), 404, 'NOT_FOUND');
    expectError(await pay(stranger, created.id), 404, 'NOT_FOUND');
    expectError(await fail(stranger, created.id), 404, 'NOT_FOUND');
    expect(CheckoutListRecord.parse(expectOk(await call('GET', `/v1/checkouts?user_id=${buyer.id}`, { key: stranger.secretKey }))).checkouts).toEqual([]);
    expectError(await create(stranger, { buyer_id: buyer.id, amount: 10 }), 404, 'NOT_FOUND');
    expect(await getCheckout(client, created.id)).toEqual(created);
  });
});

describe('the sandbox payment page /checkout/{reference}', () => {
  it('is public and shows the merchant, what is paid for and the exact amount; an unknown reference is 404', async () => {
    const client = await newClient();
    const name = `Kano Crafts Market ${randomUUID().slice(0, 6)}`;
    expectOk(await call('PATCH', `/v1/operator/clients/${client.id}`, { key: operatorKey(), body: { name } }));
    const deal = await newDeal(client, [1234.56]);
    const created = await checkout(client, { buyer_id: deal.buyer.id, milestone_id: deal.milestoneIds[0] });
    const page = await fetch(created.authorization_url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(name);
    expect(html).toContain('₦1,234.56');
    expect(html).toContain('Milestone 1');
    expect(html).toMatch(/>Pay</);
    expect(html).toMatch(/>Decline</);
    expect((await fetch(`${baseUrl()}/checkout/CO_AAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
  });
});
