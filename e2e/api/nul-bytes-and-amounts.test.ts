/**
 * Bad input the probe of issue #22 found answered as 500 or accepted: a NUL character (U+0000, which
 * PostgreSQL text cannot hold) in any text field, query or file name is 400 (item 4), and the server's
 * log after such requests holds no secret; an amount below one kobo is 400, not ₦0 (item 11). On a
 * server of this file's own, whose output it reads.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';
import { call, expectError, expectOk, type ApiResponse } from './support/api';

const NUL = '\u0000';
let server: TestServer;
let key: string;
let deal: { buyerId: string; sellerId: string; transactionId: string; milestoneId: string };

const api = (method: string, path: string, body?: unknown, opts: { key?: string } = {}) =>
  call(method, path, { key: opts.key ?? key, body, baseUrl: server.baseUrl });

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function user(first: string) {
  return expectOk(await api('POST', '/v1/users', { first_name: first, last_name: 'Nul', email_address: `${first.toLowerCase()}.${randomUUID()}@example.com` })).id as string;
}

function transactionBody(overrides: Record<string, unknown> = {}, milestone: Record<string, unknown> = {}) {
  return {
    title: 'Printing',
    description: 'Five hundred flyers',
    buyer_id: deal.buyerId,
    seller_id: deal.sellerId,
    milestones: [{ title: 'Print', description: 'All of them', amount: 1000, due_date: inDays(10), ...milestone }],
    ...overrides,
  };
}

async function upload(filename: string): Promise<ApiResponse> {
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  const form = new FormData();
  form.append('file', new Blob([png], { type: 'image/png' }), filename);
  const res = await fetch(`${server.baseUrl}/v1/files`, { method: 'POST', headers: { authorization: key }, body: form });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

beforeAll(async () => {
  server = await startTestServer();
  key = expectOk(await call('POST', '/v1/operator/clients', { key: server.operatorKey, body: { name: 'NUL probe' }, baseUrl: server.baseUrl })).secret_key;
  const [buyerId, sellerId] = [await user('Buyer'), await user('Seller')];
  deal = { buyerId, sellerId, transactionId: '', milestoneId: '' };
  expectOk(await api('POST', '/v1/wallets/fund', { user_id: buyerId, amount: 10_000 }));
  const tx = expectOk(await api('POST', '/v1/transactions', transactionBody()));
  deal.transactionId = tx.id;
  deal.milestoneId = tx.milestones[0].id;
  expectOk(await api('POST', `/v1/milestones/${deal.milestoneId}/fund`, { buyer_id: buyerId }));
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('a NUL character is bad input (400) in every text field and query', () => {
  const m = () => deal.milestoneId;
  const unknownDispute = '0190f0f0-0000-7000-8000-000000000001';
  const cases: Array<[string, () => Promise<ApiResponse>, string]> = [
    ['client name', () => call('POST', '/v1/operator/clients', { key: server.operatorKey, body: { name: `Shop${NUL}` }, baseUrl: server.baseUrl }), 'name'],
    ['first name', () => api('POST', '/v1/users', { first_name: `Ada${NUL}`, last_name: 'Obi', email_address: `a.${randomUUID()}@example.com` }), 'first_name'],
    ['last name', () => api('POST', '/v1/users', { first_name: 'Ada', last_name: `O${NUL}bi`, email_address: `a.${randomUUID()}@example.com` }), 'last_name'],
    ['?search=', () => api('GET', '/v1/users?page=1&limit=10&sort=DESC&search=ada%00'), 'search'],
    ['transaction title', () => api('POST', '/v1/transactions', transactionBody({ title: `Print${NUL}` })), 'title'],
    ['transaction description', () => api('POST', '/v1/transactions', transactionBody({ description: `${NUL}` + 'x' })), 'description'],
    ['category', () => api('POST', '/v1/transactions', transactionBody({ category: `Print${NUL}` })), 'category'],
    ['sub_category', () => api('POST', '/v1/transactions', transactionBody({ sub_category: `Flyers${NUL}` })), 'sub_category'],
    ['contract URL', () => api('POST', '/v1/transactions', transactionBody({ transaction_contract_url: `https://example.com/c${NUL}.pdf` })), 'transaction_contract_url'],
    ['milestone title', () => api('POST', '/v1/transactions', transactionBody({}, { title: `A${NUL}` })), 'milestones.0.title'],
    ['milestone description', () => api('POST', '/v1/transactions', transactionBody({}, { description: `B${NUL}` })), 'milestones.0.description'],
    ['proof URL', () => api('POST', `/v1/milestones/${m()}/deliver`, { seller_id: deal.sellerId, proofs_of_completion: [`https://files.example.com/a${NUL}.png`] }), 'proofs_of_completion'],
    ['rejection reason', () => api('POST', `/v1/milestones/${m()}/reject`, { buyer_id: deal.buyerId, rejection_reason: `Torn${NUL}`, proofs_of_return: ['https://files.example.com/r.png'] }), 'rejection_reason'],
    ['proof of return URL', () => api('POST', `/v1/milestones/${m()}/reject`, { buyer_id: deal.buyerId, rejection_reason: 'Torn', proofs_of_return: [`https://files.example.com/${NUL}`] }), 'proofs_of_return'],
    ['dispute description', () => api('POST', '/v1/dispute/create', { description: `No${NUL}`, buyer_id: deal.buyerId, seller_id: deal.sellerId, milestone_id: m() }), 'description'],
    ['amount rejection reason', () => api('PATCH', `/v1/dispute/${unknownDispute}/reject-dispute-amount`, { buyer_id: deal.buyerId, reason: `Low${NUL}` }), 'reason'],
    ['evidence text', () => api('POST', `/v1/dispute/${unknownDispute}/evidence`, { seller_id: deal.sellerId, text: `Here${NUL}` }), 'text'],
    ['evidence file URL', () => api('POST', `/v1/dispute/${unknownDispute}/evidence`, { seller_id: deal.sellerId, text: 'Here', files: [`https://files.example.com/${NUL}`] }), 'files'],
    ['cancellation details', () => api('PATCH', `/v1/dispute/${unknownDispute}/cancel`, { seller_id: deal.sellerId, cancellation_agreement_details: `Agreed${NUL}` }), 'cancellation_agreement_details'],
    ['verdict reason', () => call('POST', `/v1/operator/disputes/${unknownDispute}/verdict`, { key: server.operatorKey, body: { seller_amount: 0, reason: `Because${NUL}` }, baseUrl: server.baseUrl }), 'reason'],
    ['webhook URL', () => api('POST', '/v1/webhooks', { url: `http://127.0.0.1:9/hooks${NUL}` }), 'url'],
    ['webhook description', () => api('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', description: `Orders${NUL}` }), 'description'],
    ['file name', () => upload(`proof${NUL}.png`), 'file'],
  ];

  for (const [name, send, field] of cases) {
    it(`${name}`, async () => {
      const error = expectError(await send(), 400, 'VALIDATION_ERROR');
      expect(error.errors?.find((e) => e.field.startsWith(field))?.message, JSON.stringify(error)).toMatch(/NUL/);
    });
  }

  it('nothing failed on the server, and its output holds no secret', () => {
    const output = server.output();
    expect(output).not.toMatch(/"status":5\d\d/);
    expect(output).not.toMatch(/whsec_|sk_(test|live)_|Failed query|params:/);
  });
});

describe('an amount below one kobo is 400, not ₦0', () => {
  for (const amount of [1e-9, 5e-324, 0.004, 1.000000001]) {
    it(`${amount}: wallet funding, milestone creation, dispute amounts and verdicts`, async () => {
      const before = expectOk(await api('GET', `/v1/wallets/${deal.buyerId}`)).balance;
      expectError(await api('POST', '/v1/wallets/fund', { user_id: deal.buyerId, amount }), 400, 'VALIDATION_ERROR', /amount/);
      expect(expectOk(await api('GET', `/v1/wallets/${deal.buyerId}`)).balance).toBe(before);
      expectError(await api('POST', '/v1/transactions', transactionBody({}, { amount })), 400, 'VALIDATION_ERROR', /amount/);
      expectError(await api('PATCH', '/v1/dispute/0190f0f0-0000-7000-8000-000000000001/add-dispute-amount', { seller_id: deal.sellerId, dispute_amount: amount }), 400, 'VALIDATION_ERROR', /dispute_amount/);
      expectError(
        await call('POST', '/v1/operator/disputes/0190f0f0-0000-7000-8000-000000000001/verdict', { key: server.operatorKey, body: { seller_amount: amount, reason: 'split' }, baseUrl: server.baseUrl }),
        400,
        'VALIDATION_ERROR',
        /seller_amount/,
      );
    });
  }
});
