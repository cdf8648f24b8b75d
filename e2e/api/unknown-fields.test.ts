/**
 * Unknown body fields (issue #59, docs/api.md "Errors"): every operation with a body refuses a field it does
 * not have with 400 UNKNOWN_FIELD naming it, and does nothing, so that a misspelt field cannot pass unnoticed
 * as its default. The operations are read from the live /v1/openapi.json, each sent its own documented example.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { call, expectError, expectLedgerBalanced, expectOk, fundWallet, inDays, newClient, newDeal, newUser, operatorKey, walletBalance, type TestClient } from './support/api';

type Example = { value: unknown };
type MediaType = { example?: unknown; examples?: Record<string, Example> };
type Parameter = { name: string; in: string; example?: unknown; schema?: { example?: unknown } };
type Operation = { operationId: string; security: Array<Record<string, string[]>>; parameters?: Parameter[]; requestBody?: { content: Record<string, MediaType> } };
type Document = { paths: Record<string, Record<string, Operation>> };

const UNKNOWN = 'is not a field of this request';

async function document(): Promise<Document> {
  const res = await call<Document>('GET', '/v1/openapi.json');
  expect(res.status).toBe(200);
  return res.body;
}

/** Each operation with a JSON body: where to send it, with the documented example of its body and path ids. */
function jsonBodyOperations(doc: Document) {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, op]) => {
      const json = op.requestBody?.content['application/json'];
      if (!json) return [];
      const example = (json.example ?? Object.values(json.examples ?? {})[0]?.value) as Record<string, unknown>;
      const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => {
        const param = op.parameters?.find((p) => p.in === 'path' && p.name === name);
        return String(param?.example ?? param?.schema?.example);
      });
      const operator = op.security.some((s) => 'operatorKey' in s);
      return [{ id: op.operationId, method: method.toUpperCase(), url, example, operator }];
    }),
  );
}

/** The example's first field misspelt (a letter doubled), sent next to the right one; an empty example gets a made-up field. */
function misspelt(example: Record<string, unknown>): string {
  const first = Object.keys(example)[0];
  return first ? `${first.slice(0, -1)}${first.slice(-1).repeat(2)}` : 'unexpected_field';
}

/** What a refused request could have left behind for a fresh client: any record or money at all. */
async function recordsOf(client: TestClient) {
  const list = async (path: string) => expectOk(await call('GET', path, { key: client.secretKey }));
  return {
    users: (await list('/v1/users?page=1&limit=100&sort=ASC')).pagination.total,
    transactions: (await list('/v1/transactions')).pagination.total,
    disputes: (await list('/v1/dispute')).pagination.total,
    payouts: (await list('/v1/payouts')).pagination.total,
    checkouts: (await list('/v1/checkouts')).pagination.total,
    webhooks: (await list('/v1/webhooks')).length,
    clock: (await list('/v1/test-clock')).offset_ms,
    settings: await list('/v1/settings'),
  };
}

describe(`unknown body fields (${inject('database')})`, () => {
  it('every operation with a JSON body answers its documented example plus one misspelt field with 400 UNKNOWN_FIELD naming that field alone, and changes nothing', async () => {
    const ops = jsonBodyOperations(await document());
    expect(ops.length).toBeGreaterThanOrEqual(40);
    const client = await newClient();
    const before = await recordsOf(client);
    const clientsNamed = async (name: unknown) =>
      (expectOk(await call('GET', '/v1/operator/clients?limit=100&sort=DESC', { key: operatorKey() })).clients as Array<{ name: string }>).filter((c) => c.name === name).length;
    const operatorExample = ops.find((op) => op.id === 'createClient')?.example.name;
    const operatorClientsBefore = await clientsNamed(operatorExample);
    for (const op of ops) {
      expect(op.example, `${op.id} documents an example`).toBeTypeOf('object');
      const field = misspelt(op.example);
      const res = await call(op.method, op.url, { key: op.operator ? operatorKey() : client.secretKey, body: { ...op.example, [field]: 'x' } });
      const error = expectError(res, 400, 'UNKNOWN_FIELD');
      expect(error.errors, `${op.id}: ${error.message}`).toEqual([{ field, message: UNKNOWN }]);
      expect(error.message, op.id).toContain(field);
    }
    expect(await recordsOf(client)).toEqual(before);
    expect(await clientsNamed(operatorExample)).toBe(operatorClientsBefore);
    await expectLedgerBalanced();
  });

  it('a misspelt commission_payer is refused, not read as the default SELLER_100: nothing is created', async () => {
    const client = await newClient();
    const [buyer, seller] = [await newUser(client, 'Buyer'), await newUser(client, 'Seller')];
    const body = {
      title: 'Phones',
      description: 'Ten phones',
      buyer_id: buyer.id,
      seller_id: seller.id,
      comission_payer: 'BUYER_100',
      milestones: [{ title: 'Delivery', description: 'All ten', amount: 5000, due_date: inDays(10) }],
    };
    const error = expectError(await call('POST', '/v1/transactions', { key: client.secretKey, body }), 400, 'UNKNOWN_FIELD', /comission_payer/);
    expect(error.errors).toEqual([{ field: 'comission_payer', message: UNKNOWN }]);
    expect(expectOk(await call('GET', '/v1/transactions', { key: client.secretKey })).pagination.total).toBe(0);
  });

  it('a misspelt milestone field (inspection_days) is refused by its path, not read as the default inspection of 3 days', async () => {
    const client = await newClient();
    const [buyer, seller] = [await newUser(client, 'Buyer'), await newUser(client, 'Seller')];
    const milestone = { title: 'Delivery', description: 'All ten', amount: 5000, due_date: inDays(10) };
    const body = { title: 'Phones', description: 'Ten phones', buyer_id: buyer.id, seller_id: seller.id, milestones: [milestone, { ...milestone, inspection_days: 10 }] };
    const error = expectError(await call('POST', '/v1/transactions', { key: client.secretKey, body }), 400, 'UNKNOWN_FIELD', /milestones\.1\.inspection_days/);
    expect(error.errors).toEqual([{ field: 'milestones.1.inspection_days', message: UNKNOWN }]);
    expect(expectOk(await call('GET', '/v1/transactions', { key: client.secretKey })).pagination.total).toBe(0);
  });

  it('a currency on a funding is refused: the milestone stays unfunded and the wallet keeps its money', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [1000], { walletFunds: 5000 });
    const milestoneId = deal.milestoneIds[0]!;
    const error = expectError(
      await call('POST', `/v1/milestones/${milestoneId}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id, currency: 'USD' } }),
      400,
      'UNKNOWN_FIELD',
      /currency/,
    );
    expect(error.errors).toEqual([{ field: 'currency', message: UNKNOWN }]);
    expect(expectOk(await call('GET', `/v1/milestones/${milestoneId}`, { key: client.secretKey })).status).toBe('PENDING_FUNDING');
    expect(await walletBalance(client, deal.buyer.id)).toBe(5000);
    expectOk(await call('POST', `/v1/milestones/${milestoneId}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id } }));
  });

  it('lists the unknown fields first and every other field at fault after them, under UNKNOWN_FIELD', async () => {
    const client = await newClient();
    const res = await call('POST', '/v1/users', { key: client.secretKey, body: { first_name: '', last_name: 'Obi', email_address: `ada.${randomUUID()}@example.com`, nickname: 'Ada', age: 30 } });
    const error = expectError(res, 400, 'UNKNOWN_FIELD', /nickname, age/);
    expect(error.errors).toEqual([
      { field: 'nickname', message: UNKNOWN },
      { field: 'age', message: UNKNOWN },
      { field: 'first_name', message: 'must not be empty' },
    ]);
    expect(error.message).toMatch(/first_name must not be empty/);
  });

  it('keeps the aliases the reference shows: email or email_address (or both when they agree) creates a user; a third spelling is unknown', async () => {
    const client = await newClient();
    const address = () => `ngozi.${randomUUID()}@example.com`;
    expectOk(await call('POST', '/v1/users', { key: client.secretKey, body: { first_name: 'Ngozi', last_name: 'Eze', email: address() } }));
    expectOk(await call('POST', '/v1/users', { key: client.secretKey, body: { first_name: 'Ngozi', last_name: 'Eze', email_address: address() } }));
    const both = address();
    expectOk(await call('POST', '/v1/users', { key: client.secretKey, body: { first_name: 'Ngozi', last_name: 'Eze', email_address: both, email: both } }));
    const error = expectError(await call('POST', '/v1/users', { key: client.secretKey, body: { first_name: 'Ngozi', last_name: 'Eze', emailAddress: address() } }), 400, 'UNKNOWN_FIELD');
    expect(error.errors).toEqual([{ field: 'emailAddress', message: UNKNOWN }, { field: 'email_address', message: 'is required (or send email)' }]);
    expect(expectOk(await call('GET', '/v1/users?page=1&limit=10&sort=ASC', { key: client.secretKey })).pagination.total).toBe(3);
  });

  it('refuses an upload with a form field besides "file"; unknown query parameters stay ignored', async () => {
    const client = await newClient();
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'proof.png');
    form.append('caption', 'the delivery');
    const res = await call('POST', '/v1/files', { key: client.secretKey, rawBody: form });
    const error = expectError(res, 400, 'UNKNOWN_FIELD', /caption/);
    expect(error.errors).toEqual([{ field: 'caption', message: UNKNOWN }]);
    const user = await newUser(client);
    await fundWallet(client, user.id, 10);
    expectOk(await call('GET', `/v1/wallets/${user.id}/history?colour=red`, { key: client.secretKey }));
  });
});
