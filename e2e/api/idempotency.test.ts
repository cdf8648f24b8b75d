import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { call, expectError, expectLedgerBalanced, expectOk, newClient, newDeal, newUser, walletBalance } from './support/api';

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body, without acting again', async () => {
    const client = await newClient();
    const user = await newUser(client);
    const key = randomUUID();
    const first = await call('POST', '/v1/wallets/fund', { key: client.secretKey, body: { user_id: user.id, amount: 1_000 }, headers: { 'idempotency-key': key } });
    const second = await call('POST', '/v1/wallets/fund', { key: client.secretKey, body: { user_id: user.id, amount: 1_000 }, headers: { 'idempotency-key': key } });
    expect(expectOk(first).balance).toBe(1_000);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await walletBalance(client, user.id)).toBe(1_000);
    await expectLedgerBalanced();
  });

  it('refuses the same key with another body (422) and keeps keys per client', async () => {
    const client = await newClient();
    const other = await newClient();
    const user = await newUser(client);
    const otherUser = await newUser(other);
    const key = randomUUID();
    expectOk(await call('POST', '/v1/wallets/fund', { key: client.secretKey, body: { user_id: user.id, amount: 10 }, headers: { 'idempotency-key': key } }));
    expectError(
      await call('POST', '/v1/wallets/fund', { key: client.secretKey, body: { user_id: user.id, amount: 20 }, headers: { 'idempotency-key': key } }),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
    // Another client using the same key string is a different key.
    expect(expectOk(await call('POST', '/v1/wallets/fund', { key: other.secretKey, body: { user_id: otherUser.id, amount: 20 }, headers: { 'idempotency-key': key } })).balance).toBe(20);
    expect(await walletBalance(client, user.id)).toBe(10);
  });

  it('a failed request records nothing: the same key succeeds once the cause is fixed', async () => {
    const client = await newClient();
    const deal = await newDeal(client, [5_000], { walletFunds: 1_000 });
    const key = randomUUID();
    const fund = () => call('POST', `/v1/milestones/${deal.milestoneIds[0]}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id }, headers: { 'idempotency-key': key } });
    expectError(await fund(), 409, 'INSUFFICIENT_FUNDS');
    expectOk(await call('POST', '/v1/wallets/fund', { key: client.secretKey, body: { user_id: deal.buyer.id, amount: 4_000 } }));
    expect(expectOk(await fund()).status).toBe('IN_PROGRESS');
    expect((await fund()).headers.get('idempotent-replayed')).toBe('true');
    expect(await walletBalance(client, deal.buyer.id)).toBe(0);
  });

  it(`the same key sent 10 times at once acts once (${inject('database')})`, async () => {
    const client = await newClient();
    const user = await newUser(client);
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', '/v1/wallets/fund', { key: client.secretKey, body: { user_id: user.id, amount: 100 }, headers: { 'idempotency-key': key } })),
    );
    // Each either ran, was replayed, or was told the first is still running (409).
    for (const r of results) expect([200, 409]).toContain(r.status);
    const fresh = results.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    expect(await walletBalance(client, user.id)).toBe(100);
    await expectLedgerBalanced();
  });

  it('refuses a malformed key', async () => {
    const client = await newClient();
    const user = await newUser(client);
    expectError(
      await call('POST', '/v1/wallets/fund', { key: client.secretKey, body: { user_id: user.id, amount: 1 }, headers: { 'idempotency-key': 'x'.repeat(256) } }),
      400,
      'VALIDATION_ERROR',
      /Idempotency-Key/,
    );
    expect(await walletBalance(client, user.id)).toBe(0);
  });
});

describe('limits and headers', () => {
  it('refuses a JSON body over 1 MB with 413 and echoes a request id on every response', async () => {
    const client = await newClient();
    const res = await call('POST', '/v1/users', { key: client.secretKey, body: { first_name: 'x'.repeat(1_100_000), last_name: 'y', email: 'a@b.co' } });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const ok = await call('GET', '/v1/wallets/banks', { key: client.secretKey });
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
