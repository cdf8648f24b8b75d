/**
 * One rate limit for the whole service (issue #22, item 10): counted in the database, so it holds across
 * separate server processes on one PostgreSQL, and counted for requests that fail authentication too,
 * per client address as the server decided it (never as the client claims it).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerPair, startTestServer, type TestServer } from '../support/test-server';
import { call, expectError, expectOk, type ApiResponse } from './support/api';

const randomKey = () => `sk_test_${randomBytes(24).toString('hex')}`;
const randomAddress = () => `198.51.100.${1 + Math.floor(Math.random() * 250)}`;

async function newClientOn(server: TestServer): Promise<string> {
  return expectOk(await call('POST', '/v1/operator/clients', { key: server.operatorKey, body: { name: 'Limited' }, baseUrl: server.baseUrl })).secret_key;
}

function expectRateLimited(res: ApiResponse) {
  expectError(res, 429, 'RATE_LIMITED');
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

describe('failed authentications per client address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { ESCROW_AUTH_FAILURES_PER_MINUTE: '20' } });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('answer 429 to random keys from one address once its failures are spent, whatever address it claims', async () => {
    const statuses: number[] = [];
    let limited: ApiResponse | undefined;
    for (let i = 0; i < 30; i++) {
      // Not a trusted proxy: neither header may move the count to another address.
      const res = await call('GET', '/v1/wallets/banks', {
        key: randomKey(),
        baseUrl: server.baseUrl,
        headers: { 'x-forwarded-for': randomAddress(), 'x-escrow-client-address': randomAddress() },
      });
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual(Array(10).fill(429));
    expectRateLimited(limited!);
  });

  it('do not count the successful requests of an address', async () => {
    const fresh = await startTestServer({ env: { ESCROW_AUTH_FAILURES_PER_MINUTE: '20' } });
    try {
      const key = await newClientOn(fresh);
      for (let i = 0; i < 40; i++) expect((await call('GET', '/v1/wallets/banks', { key, baseUrl: fresh.baseUrl })).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await call('GET', '/v1/wallets/banks', { key: randomKey(), baseUrl: fresh.baseUrl })).status).toBe(401);
    } finally {
      await fresh.stop();
    }
  }, 120_000);
});

describe('a trusted proxy (ESCROW_TRUSTED_PROXIES=loopback)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { ESCROW_AUTH_FAILURES_PER_MINUTE: '5', ESCROW_TRUSTED_PROXIES: 'loopback' } });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('names the client whose failures are counted: another client behind the same proxy is not refused', async () => {
    const attacker = { 'x-forwarded-for': '203.0.113.66' };
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await call('GET', '/v1/wallets/banks', { key: randomKey(), baseUrl: server.baseUrl, headers: attacker })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const key = await newClientOn(server);
    expectOk(await call('GET', '/v1/wallets/banks', { key, baseUrl: server.baseUrl, headers: { 'x-forwarded-for': '192.0.2.7' } }));
    expect((await call('GET', '/v1/wallets/banks', { key: randomKey(), baseUrl: server.baseUrl, headers: { 'x-forwarded-for': '192.0.2.7' } })).status).toBe(401);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('two separate servers on one PostgreSQL (skipped without TEST_DATABASE_URL: PGlite is one process)', () => {
  let first: TestServer;
  let second: TestServer;
  let pair: Awaited<ReturnType<typeof startServerPair>> | undefined;
  beforeAll(async () => {
    pair = await startServerPair({ ESCROW_RATE_LIMIT_BURST: '10', ESCROW_RATE_LIMIT_PER_MINUTE: '60', ESCROW_AUTH_FAILURES_PER_MINUTE: '10' });
    ({ first, second } = pair);
  }, 180_000);
  afterAll(async () => {
    await pair?.stop();
  });

  it('share one rate limit per client: a burst of 10 holds across both', async () => {
    const key = await newClientOn(first);
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) statuses.push((await call('GET', '/v1/wallets/banks', { key, baseUrl: (i % 2 ? second : first).baseUrl })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual(Array(6).fill(429));
    expectRateLimited(await call('GET', '/v1/wallets/banks', { key, baseUrl: second.baseUrl }));
  });

  it('share the failed authentications of an address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call('GET', '/v1/wallets/banks', { key: randomKey(), baseUrl: first.baseUrl })).status);
    for (let i = 0; i < 6; i++) statuses.push((await call('GET', '/v1/wallets/banks', { key: randomKey(), baseUrl: second.baseUrl })).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('a larger limit across two servers, counted in leases (skipped without TEST_DATABASE_URL)', () => {
  let pair: Awaited<ReturnType<typeof startServerPair>> | undefined;
  beforeAll(async () => {
    // A burst of 100 in a window of 10 s: each server takes points 5 at a time from the shared count.
    pair = await startServerPair({ ESCROW_RATE_LIMIT_BURST: '100', ESCROW_RATE_LIMIT_PER_MINUTE: '600' });
  }, 180_000);
  afterAll(async () => {
    await pair?.stop();
  });

  it('serves no more than the burst across both, and refuses the rest with 429', async () => {
    const { first, second } = pair!;
    const key = await newClientOn(first);
    const statuses: number[] = [];
    for (let i = 0; i < 130; i++) statuses.push((await call('GET', '/v1/wallets/banks', { key, baseUrl: (i % 2 ? second : first).baseUrl })).status);
    const served = statuses.filter((s) => s === 200).length;
    expect(served).toBeLessThanOrEqual(100);
    // A lease left unused on each server is the most lost to the leasing (its worker processes included).
    expect(served).toBeGreaterThanOrEqual(100 - 4 * 5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(130 - served);
    expectRateLimited(await call('GET', '/v1/wallets/banks', { key, baseUrl: second.baseUrl }));
  });
});
