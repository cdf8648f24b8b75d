/**
 * Integrators' conveniences (docs/decisions.md §19, items 1–3) over HTTP: metadata on users, transactions,
 * milestones, payouts and checkouts with its limits and PATCH merge; external_reference unique per client with
 * the 409 naming the holder, even between concurrent creates; a per-transaction fee rate under the client's cap.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { call, expectError, expectLedgerBalanced, expectOk, fundWallet, inDays, newClient, newUser, operatorKey, uploadProof, walletBalance, type ApiResponse, type TestClient } from './support/api';
import { waitFor } from './support/wait-for';

vi.setConfig({ testTimeout: 90_000 });

function createTransaction(client: TestClient, body: Record<string, unknown>) {
  return call('POST', '/v1/transactions', { key: client.secretKey, body });
}

async function parties(client: TestClient) {
  return { buyer: await newUser(client, 'Buyer'), seller: await newUser(client, 'Seller') };
}

function dealBody(p: { buyer: { id: string }; seller: { id: string } }, extra: Record<string, unknown> = {}, milestone: Record<string, unknown> = {}) {
  return {
    title: 'Integration deal',
    description: 'A deal with integration fields',
    buyer_id: p.buyer.id,
    seller_id: p.seller.id,
    milestones: [{ title: 'Only', description: 'Work', amount: 10_000, due_date: inDays(10), ...milestone }],
    ...extra,
  };
}

async function transactionCount(client: TestClient): Promise<number> {
  return expectOk(await call('GET', '/v1/transactions?limit=1', { key: client.secretKey })).pagination.total;
}

async function payoutCount(client: TestClient): Promise<number> {
  return expectOk(await call('GET', '/v1/payouts?limit=1', { key: client.secretKey })).pagination.total;
}

async function checkoutCount(client: TestClient): Promise<number> {
  return expectOk(await call('GET', '/v1/checkouts?limit=1', { key: client.secretKey })).pagination.total;
}

/** The four ways a metadata value breaks the limits, each with the field its 400 must name. */
const OVER_LIMITS: Array<[string, Record<string, unknown>, string]> = [
  ['21 keys', Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`key_${i}`, 'v'])), 'metadata'],
  ['a 41-character key', { ['k'.repeat(41)]: 'v' }, `metadata.${'k'.repeat(41)}`],
  ['a 501-character value', { note: 'x'.repeat(501) }, 'metadata.note'],
  ['a non-string value', { count: 5 }, 'metadata.count'],
];

function expectMetadataRefused(res: ApiResponse, field: string) {
  const body = expectError(res, 400, 'VALIDATION_ERROR');
  expect(body.errors?.map((e) => e.field)).toContain(field);
}

describe('metadata limits', () => {
  it.each(OVER_LIMITS)('%s is 400 naming the field on every create and PATCH, and nothing is created or changed', async (_, metadata, field) => {
    const client = await newClient();
    const p = await parties(client);
    const usersBefore = expectOk(await call('GET', '/v1/users?page=1&limit=1&sort=DESC', { key: client.secretKey })).pagination.total;
    expectMetadataRefused(await call('POST', '/v1/users', { key: client.secretKey, body: { first_name: 'Over', last_name: 'Limit', email_address: `over.${randomUUID()}@example.com`, metadata } }), field);
    expect(expectOk(await call('GET', '/v1/users?page=1&limit=1&sort=DESC', { key: client.secretKey })).pagination.total).toBe(usersBefore);

    expectMetadataRefused(await createTransaction(client, dealBody(p, { metadata })), field);
    expectMetadataRefused(await createTransaction(client, dealBody(p, {}, { metadata })), `milestones.0.${field}`);
    expect(await transactionCount(client)).toBe(0);

    const transaction = expectOk(await createTransaction(client, dealBody(p, { metadata: { kept: 'yes' } })));
    expectMetadataRefused(await call('PATCH', `/v1/transactions/${transaction.id}`, { key: client.secretKey, body: { metadata } }), field);
    expectMetadataRefused(await call('PATCH', `/v1/users/${p.buyer.id}`, { key: client.secretKey, body: { metadata } }), field);
    expect(expectOk(await call('GET', `/v1/transactions/${transaction.id}`, { key: client.secretKey })).metadata).toEqual({ kept: 'yes' });
    expect(expectOk(await call('GET', `/v1/users/${p.buyer.id}`, { key: client.secretKey })).metadata).toEqual({});

    // The payout could otherwise be made (a bank account and the money are there), so only the metadata stops it.
    expectOk(await call('POST', '/v1/wallets/banks/disbursement', { key: client.secretKey, body: { user_id: p.buyer.id, account_number: '0016563228', bank_code: '058' } }));
    await fundWallet(client, p.buyer.id, 1_000);
    expectMetadataRefused(await call('POST', '/v1/payouts', { key: client.secretKey, body: { user_id: p.buyer.id, amount: 10, metadata } }), field);
    expectMetadataRefused(await call('POST', '/v1/checkouts', { key: client.secretKey, body: { buyer_id: p.buyer.id, amount: 10, metadata } }), field);
    expect(await payoutCount(client)).toBe(0);
    expect(await checkoutCount(client)).toBe(0);
    expect(await walletBalance(client, p.buyer.id)).toBe(1_000);
    // The same creates within the limits go through: it was the metadata that was refused.
    expect(expectOk(await call('POST', '/v1/payouts', { key: client.secretKey, body: { user_id: p.buyer.id, amount: 10, metadata: { kept: 'yes' } } })).metadata).toEqual({ kept: 'yes' });
    expect(expectOk(await call('POST', '/v1/checkouts', { key: client.secretKey, body: { buyer_id: p.buyer.id, amount: 10, metadata: { kept: 'yes' } } })).metadata).toEqual({ kept: 'yes' });
    expect(await payoutCount(client)).toBe(1);
    expect(await checkoutCount(client)).toBe(1);
    expect(await walletBalance(client, p.buyer.id)).toBe(990);
  });

  it('a PATCH that would leave more than 20 keys is 400 and keeps the 20 there are', async () => {
    const client = await newClient();
    const p = await parties(client);
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`key_${i}`, `v${i}`]));
    const transaction = expectOk(await createTransaction(client, dealBody(p, { metadata: twenty })));
    expect(transaction.metadata).toEqual(twenty);
    expectMetadataRefused(await call('PATCH', `/v1/transactions/${transaction.id}`, { key: client.secretKey, body: { metadata: { one_more: 'x' } } }), 'metadata');
    expect(expectOk(await call('GET', `/v1/transactions/${transaction.id}`, { key: client.secretKey })).metadata).toEqual(twenty);
    // Removing one and adding one in the same change stays within 20.
    const swapped = expectOk(await call('PATCH', `/v1/transactions/${transaction.id}`, { key: client.secretKey, body: { metadata: { key_0: null, one_more: 'x' } } }));
    expect(Object.keys(swapped.metadata)).toHaveLength(20);
    expect(swapped.metadata).toMatchObject({ one_more: 'x' });
    expect(swapped.metadata.key_0).toBeUndefined();
  });

  it('PATCH /v1/transactions/{id}: unknown transaction is 404, another client’s is 404, an empty body is 400', async () => {
    const client = await newClient();
    const other = await newClient();
    const p = await parties(client);
    const transaction = expectOk(await createTransaction(client, dealBody(p)));
    expectError(await call('PATCH', `/v1/transactions/${randomUUID()}`, { key: client.secretKey, body: { metadata: { a: 'b' } } }), 404, 'NOT_FOUND');
    expectError(await call('PATCH', `/v1/transactions/${transaction.id}`, { key: other.secretKey, body: { metadata: { a: 'b' } } }), 404, 'NOT_FOUND');
    expectError(await call('PATCH', `/v1/transactions/${transaction.id}`, { key: client.secretKey, body: {} }), 400, 'VALIDATION_ERROR');
    expect(expectOk(await call('GET', `/v1/transactions/${transaction.id}`, { key: client.secretKey })).metadata).toEqual({});
  });
});

describe('metadata set, merged, removed and returned', () => {
  it('a key set to null or "" is removed, other keys merge, keys not sent stay (users and transactions)', async () => {
    const client = await newClient();
    const user = expectOk(
      await call('POST', '/v1/users', {
        key: client.secretKey,
        body: { first_name: 'Meta', last_name: 'Data', email_address: `meta.${randomUUID()}@example.com`, metadata: { crm_id: 'C-1', tier: 'gold', region: 'north' } },
      }),
    );
    expect(user.metadata).toEqual({ crm_id: 'C-1', tier: 'gold', region: 'north' });
    const patched = expectOk(await call('PATCH', `/v1/users/${user.id}`, { key: client.secretKey, body: { metadata: { tier: null, region: '', crm_id: 'C-2', since: '2026' } } }));
    expect(patched.metadata).toEqual({ crm_id: 'C-2', since: '2026' });
    expect(expectOk(await call('GET', `/v1/users/${user.id}`, { key: client.secretKey })).metadata).toEqual({ crm_id: 'C-2', since: '2026' });

    const seller = await newUser(client, 'Seller');
    const transaction = expectOk(await createTransaction(client, dealBody({ buyer: user, seller }, { metadata: { order_id: 'O-1', coupon: 'SPRING' } })));
    const changed = expectOk(await call('PATCH', `/v1/transactions/${transaction.id}`, { key: client.secretKey, body: { metadata: { coupon: null, channel: 'web' } } }));
    expect(changed.metadata).toEqual({ order_id: 'O-1', channel: 'web' });
    const emptied = expectOk(await call('PATCH', `/v1/transactions/${transaction.id}`, { key: client.secretKey, body: { metadata: { order_id: '', channel: null } } }));
    expect(emptied.metadata).toEqual({});
  });

  it('is on the records of users, transactions (list too), milestones, payouts and checkouts', async () => {
    const client = await newClient();
    const buyer = expectOk(
      await call('POST', '/v1/users', { key: client.secretKey, body: { first_name: 'Buyer', last_name: 'Meta', email_address: `b.${randomUUID()}@example.com`, metadata: { who: 'buyer' } } }),
    );
    const seller = await newUser(client, 'Seller');
    await fundWallet(client, buyer.id, 50_000);
    const transaction = expectOk(await createTransaction(client, dealBody({ buyer, seller }, { metadata: { order_id: 'O-9' } }, { metadata: { step: 'one' } })));
    expect(transaction.metadata).toEqual({ order_id: 'O-9' });
    expect(transaction.milestones[0].metadata).toEqual({ step: 'one' });
    expect(transaction.buyer.user.metadata).toEqual({ who: 'buyer' });
    const milestoneId = transaction.milestones[0].id as string;
    const milestone = expectOk(await call('GET', `/v1/milestones/${milestoneId}`, { key: client.secretKey }));
    expect(milestone.metadata).toEqual({ step: 'one' });
    expect(milestone.transaction.metadata).toEqual({ order_id: 'O-9' });
    const listed = expectOk(await call('GET', '/v1/transactions', { key: client.secretKey }));
    expect(listed.transactions[0].metadata).toEqual({ order_id: 'O-9' });
    const users = expectOk(await call('GET', '/v1/users?page=1&limit=20&sort=DESC', { key: client.secretKey })).users;
    expect(users.find((u: { id: string }) => u.id === buyer.id).metadata).toEqual({ who: 'buyer' });

    expectOk(await call('POST', '/v1/wallets/banks/disbursement', { key: client.secretKey, body: { user_id: buyer.id, account_number: '0016563228', bank_code: '058' } }));
    const payout = expectOk(await call('POST', '/v1/payouts', { key: client.secretKey, body: { user_id: buyer.id, amount: 100, metadata: { batch: 'B-1' } } }));
    expect(payout.metadata).toEqual({ batch: 'B-1' });
    expect(expectOk(await call('GET', `/v1/payouts/${payout.id}`, { key: client.secretKey })).metadata).toEqual({ batch: 'B-1' });
    const plain = expectOk(await call('POST', '/v1/payouts', { key: client.secretKey, body: { user_id: buyer.id, amount: 100 } }));
    expect(plain.metadata).toEqual({});

    const checkout = expectOk(await call('POST', '/v1/checkouts', { key: client.secretKey, body: { buyer_id: buyer.id, milestone_id: milestoneId, metadata: { cart: 'K-7' } } }));
    expect(checkout.metadata).toEqual({ cart: 'K-7' });
    expect(expectOk(await call('GET', `/v1/checkouts/${checkout.id}`, { key: client.secretKey })).metadata).toEqual({ cart: 'K-7' });
    const plainCheckout = expectOk(await call('POST', '/v1/checkouts', { key: client.secretKey, body: { buyer_id: buyer.id, amount: 50 } }));
    expect(plainCheckout.metadata).toEqual({});
    const checkouts = expectOk(await call('GET', `/v1/checkouts?user_id=${buyer.id}`, { key: client.secretKey })).checkouts as Array<{ id: string; metadata: Record<string, string> }>;
    expect(checkouts.map((c) => [c.id, c.metadata])).toEqual([
      [plainCheckout.id, {}],
      [checkout.id, { cart: 'K-7' }],
    ]);
    const payouts = expectOk(await call('GET', `/v1/payouts?user_id=${buyer.id}`, { key: client.secretKey })).payouts as Array<{ id: string; metadata: Record<string, string> }>;
    expect(payouts.find((p) => p.id === payout.id)?.metadata).toEqual({ batch: 'B-1' });
  });
});

// A receiver on loopback for the webhook payloads.
type Delivery = { type: string; data: Record<string, any> };
const receivers: http.Server[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

async function receiver(): Promise<{ url: string; received: Delivery[] }> {
  const received: Delivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Delivery);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receivers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

describe('metadata in webhook payloads', () => {
  it('checkout.paid carries the checkout’s metadata, and the paid checkout keeps it', async () => {
    const client = await newClient();
    const hook = await receiver();
    expectOk(await call('POST', '/v1/webhooks', { key: client.secretKey, body: { url: hook.url } }));
    const buyer = await newUser(client, 'Buyer');
    const checkout = expectOk(await call('POST', '/v1/checkouts', { key: client.secretKey, body: { buyer_id: buyer.id, amount: 700, metadata: { cart: 'K-hook', channel: 'web' } } }));
    const paid = expectOk(await call('POST', `/v1/test-helpers/checkouts/${checkout.id}/pay`, { key: client.secretKey }));
    expect(paid).toMatchObject({ status: 'PAID', metadata: { cart: 'K-hook', channel: 'web' } });

    const delivered = await waitFor('checkout.paid', () => hook.received.find((d) => d.type === 'checkout.paid'));
    expect(delivered.data.checkout).toMatchObject({ id: checkout.id, status: 'PAID', metadata: { cart: 'K-hook', channel: 'web' } });
    expect(expectOk(await call('GET', `/v1/checkouts/${checkout.id}`, { key: client.secretKey })).metadata).toEqual({ cart: 'K-hook', channel: 'web' });
    expect(await walletBalance(client, buyer.id)).toBe(700);
  });

  it('transaction.created, milestone.funded and payout.created carry the metadata as set', async () => {
    const client = await newClient();
    const hook = await receiver();
    expectOk(await call('POST', '/v1/webhooks', { key: client.secretKey, body: { url: hook.url } }));
    const buyer = expectOk(
      await call('POST', '/v1/users', { key: client.secretKey, body: { first_name: 'Hook', last_name: 'Buyer', email_address: `h.${randomUUID()}@example.com`, metadata: { who: 'buyer' } } }),
    );
    const seller = await newUser(client, 'Seller');
    await fundWallet(client, buyer.id, 50_000);
    const transaction = expectOk(await createTransaction(client, dealBody({ buyer, seller }, { metadata: { order_id: 'O-hook' } }, { metadata: { step: 'one' } })));
    expectOk(await call('PATCH', `/v1/transactions/${transaction.id}`, { key: client.secretKey, body: { metadata: { paid_by: 'card' } } }));
    expectOk(await call('POST', `/v1/milestones/${transaction.milestones[0].id}/fund`, { key: client.secretKey, body: { buyer_id: buyer.id } }));
    expectOk(await call('POST', '/v1/wallets/banks/disbursement', { key: client.secretKey, body: { user_id: buyer.id, account_number: '0016563228', bank_code: '058' } }));
    expectOk(await call('POST', '/v1/payouts', { key: client.secretKey, body: { user_id: buyer.id, amount: 100, metadata: { batch: 'B-hook' } } }));

    const created = await waitFor('transaction.created', () => hook.received.find((d) => d.type === 'transaction.created'));
    expect(created.data.transaction.metadata).toEqual({ order_id: 'O-hook' });
    expect(created.data.transaction.milestones[0].metadata).toEqual({ step: 'one' });
    expect(created.data.transaction.buyer.user.metadata).toEqual({ who: 'buyer' });
    const funded = await waitFor('milestone.funded', () => hook.received.find((d) => d.type === 'milestone.funded'));
    expect(funded.data.milestone.metadata).toEqual({ step: 'one' });
    expect(funded.data.milestone.transaction.metadata).toEqual({ order_id: 'O-hook', paid_by: 'card' });
    const payout = await waitFor('payout.created', () => hook.received.find((d) => d.type === 'payout.created'));
    expect(payout.data.payout.metadata).toEqual({ batch: 'B-hook' });
  });
});

describe('external_reference', () => {
  it('a repeat is 409 DUPLICATE_EXTERNAL_REFERENCE naming the existing transaction, and nothing is created', async () => {
    const client = await newClient();
    const p = await parties(client);
    const first = expectOk(await createTransaction(client, dealBody(p, { external_reference: 'ORD-1' })));
    expect(first.external_reference).toBe('ORD-1');
    const repeat = await createTransaction(client, dealBody(p, { external_reference: 'ORD-1' }));
    const body = expectError(repeat, 409, 'DUPLICATE_EXTERNAL_REFERENCE', first.id);
    expect((body as { existing_id?: string }).existing_id).toBe(first.id);
    expect(body.errors).toEqual([{ field: 'external_reference', message: `is already used by transaction ${first.id}` }]);
    expect(await transactionCount(client)).toBe(1);
    // Without a reference, or with another one, creates go on.
    expect(expectOk(await createTransaction(client, dealBody(p))).external_reference).toBeNull();
    expect(expectOk(await createTransaction(client, dealBody(p))).external_reference).toBeNull();
    expectOk(await createTransaction(client, dealBody(p, { external_reference: 'ORD-2' })));
    expect(await transactionCount(client)).toBe(4);
  });

  it('refuses an empty, a 101-character and a NUL reference with 400', async () => {
    const client = await newClient();
    const p = await parties(client);
    for (const bad of ['', 'r'.repeat(101), 'a\u0000b']) {
      const body = expectError(await createTransaction(client, dealBody(p, { external_reference: bad })), 400, 'VALIDATION_ERROR');
      expect(body.errors?.map((e) => e.field)).toContain('external_reference');
    }
    expect(expectOk(await createTransaction(client, dealBody(p, { external_reference: 'r'.repeat(100) }))).external_reference).toBe('r'.repeat(100));
  });

  it('concurrent creates with one reference: exactly one is created, the others are 409 naming it (also with Idempotency-Keys)', async () => {
    const client = await newClient();
    const p = await parties(client);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call('POST', '/v1/transactions', { key: client.secretKey, body: dealBody(p, { external_reference: 'RACE-1' }), headers: i % 2 ? { 'idempotency-key': randomUUID() } : {} }),
      ),
    );
    const created = answers.filter((a) => a.status === 200);
    expect(created).toHaveLength(1);
    const winner = created[0]!.body.data.id as string;
    for (const lost of answers.filter((a) => a.status !== 200)) {
      expectError(lost, 409, 'DUPLICATE_EXTERNAL_REFERENCE');
      expect(lost.body.existing_id).toBe(winner);
    }
    const found = expectOk(await call('GET', '/v1/transactions?external_reference=RACE-1', { key: client.secretKey }));
    expect(found.transactions.map((t: { id: string }) => t.id)).toEqual([winner]);
  });

  it('?external_reference= finds exactly that transaction; another client’s reference finds nothing; the search matches it too', async () => {
    const client = await newClient();
    const other = await newClient();
    const p = await parties(client);
    const mine = expectOk(await createTransaction(client, dealBody(p, { external_reference: 'SHOP-77' })));
    expectOk(await createTransaction(client, dealBody(p, { external_reference: 'SHOP-777' })));
    const q = await parties(other);
    const theirs = expectOk(await createTransaction(other, dealBody(q, { external_reference: 'THEIRS-1' })));
    // Each client's references are its own: the other client may use SHOP-77 as well.
    expectOk(await createTransaction(other, dealBody(q, { external_reference: 'SHOP-77' })));

    const found = expectOk(await call('GET', '/v1/transactions?external_reference=SHOP-77', { key: client.secretKey }));
    expect(found.transactions.map((t: { id: string }) => t.id)).toEqual([mine.id]);
    expect(found.pagination.total).toBe(1);
    const notMine = expectOk(await call('GET', '/v1/transactions?external_reference=THEIRS-1', { key: client.secretKey }));
    expect(notMine.transactions).toEqual([]);
    expect(notMine.pagination.total).toBe(0);
    expect(expectOk(await call('GET', '/v1/transactions?external_reference=THEIRS-1', { key: other.secretKey })).transactions.map((t: { id: string }) => t.id)).toEqual([theirs.id]);
    const searched = expectOk(await call('GET', '/v1/transactions?search=shop-7', { key: client.secretKey }));
    expect(searched.transactions).toHaveLength(2);
  });
});

describe('fee_basis_points per transaction', () => {
  it('overrides the client’s rate: the fee taken at funding and at settlement follows it, and the record shows it', async () => {
    const client = await newClient();
    const p = await parties(client);
    await fundWallet(client, p.buyer.id, 50_000);
    const defaulted = expectOk(await createTransaction(client, dealBody(p)));
    expect(defaulted.fee_basis_points).toBe(100);
    expect(defaulted.milestones[0].milestone_fee).toBe(100);

    // BUYER_100 at 2.5%: funding takes the price plus 250 from the buyer.
    const buyerPays = expectOk(await createTransaction(client, dealBody(p, { fee_basis_points: 250, commission_payer: 'BUYER_100' })));
    expect(buyerPays.fee_basis_points).toBe(250);
    expect(buyerPays.milestones[0]).toMatchObject({ milestone_fee: 250, rate_used: 2.5 });
    expectOk(await call('POST', `/v1/milestones/${buyerPays.milestones[0].id}/fund`, { key: client.secretKey, body: { buyer_id: p.buyer.id } }));
    expect(await walletBalance(client, p.buyer.id)).toBe(50_000 - 10_250);

    // SELLER_100 at 0%: the seller is paid the whole price on approval.
    const free = expectOk(await createTransaction(client, dealBody(p, { fee_basis_points: 0 })));
    expect(free.milestones[0].milestone_fee).toBe(0);
    const m = free.milestones[0].id as string;
    expectOk(await call('POST', `/v1/milestones/${m}/fund`, { key: client.secretKey, body: { buyer_id: p.buyer.id } }));
    expectOk(await call('POST', `/v1/milestones/${m}/deliver`, { key: client.secretKey, body: { seller_id: p.seller.id, proofs_of_completion: [await uploadProof(client)] } }));
    expectOk(await call('POST', `/v1/milestones/${m}/approve`, { key: client.secretKey, body: { buyer_id: p.buyer.id } }));
    expect(await walletBalance(client, p.seller.id)).toBe(10_000);
    expect(expectOk(await call('GET', `/v1/transactions/${free.id}`, { key: client.secretKey })).fee_basis_points).toBe(0);
    await expectLedgerBalanced();
  });

  it('the client’s fee cap still applies, and a later change of the client’s rate leaves the transaction’s', async () => {
    const client = await newClient();
    expectOk(await call('PATCH', `/v1/operator/clients/${client.id}`, { key: operatorKey(), body: { fee_cap: 300 } }));
    const p = await parties(client);
    await fundWallet(client, p.buyer.id, 50_000);
    const capped = expectOk(await createTransaction(client, dealBody(p, { fee_basis_points: 5_000 })));
    expect(capped.fee_basis_points).toBe(5_000);
    expect(capped.milestones[0].milestone_fee).toBe(300);
    const m = capped.milestones[0].id as string;
    expectOk(await call('PATCH', `/v1/operator/clients/${client.id}`, { key: operatorKey(), body: { fee_basis_points: 10 } }));
    expectOk(await call('POST', `/v1/milestones/${m}/fund`, { key: client.secretKey, body: { buyer_id: p.buyer.id } }));
    expectOk(await call('POST', `/v1/milestones/${m}/deliver`, { key: client.secretKey, body: { seller_id: p.seller.id, proofs_of_completion: [await uploadProof(client)] } }));
    expectOk(await call('POST', `/v1/milestones/${m}/approve`, { key: client.secretKey, body: { buyer_id: p.buyer.id } }));
    expect(await walletBalance(client, p.seller.id)).toBe(10_000 - 300);
    expect(expectOk(await call('GET', `/v1/transactions/${capped.id}`, { key: client.secretKey })).fee_basis_points).toBe(5_000);
    await expectLedgerBalanced();
  });

  it('refuses a rate outside 0–10,000 or not whole with 400, and creates nothing', async () => {
    const client = await newClient();
    const p = await parties(client);
    for (const bad of [-1, 10_001, 1.5, '100']) {
      const body = expectError(await createTransaction(client, dealBody(p, { fee_basis_points: bad })), 400, 'VALIDATION_ERROR');
      expect(body.errors?.map((e) => e.field)).toContain('fee_basis_points');
    }
    expect(await transactionCount(client)).toBe(0);
    expect(expectOk(await createTransaction(client, dealBody(p, { fee_basis_points: 10_000 }))).milestones[0].milestone_fee).toBe(10_000);
  });
});
