/**
 * ESCROW_DB_PREPARED_STATEMENTS=0 (a pooler in transaction mode in front of PostgreSQL) sends every
 * statement unprepared, on either driver; every other suite runs with it on. The API must not notice:
 * the lifecycle, the reads and the lists answer as they do with it on, and the ledger balances.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { ESCROW_DB_PREPARED_STATEMENTS: '0' } });
}, 120_000);
afterAll(async () => server?.stop());

async function call(method: string, route: string, key: string, body?: unknown) {
  const res = await fetch(`${server.baseUrl}${route}`, {
    method,
    headers: { authorization: key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  expect(res.status, `${method} ${route}: ${JSON.stringify(json)}`).toBe(200);
  return json.data;
}

describe('with prepared statements off', () => {
  it('runs a milestone from creation to payout, and the reads and lists see it', async () => {
    const created = await call('POST', '/v1/operator/clients', server.operatorKey, { name: 'Unprepared', mode: 'test' });
    const key: string = created.secret_key;
    const buyer = await call('POST', '/v1/users', key, { first_name: 'Ngozi', last_name: 'Unprepared', email_address: 'ngozi@example.com' });
    const seller = await call('POST', '/v1/users', key, { first_name: 'Emeka', last_name: 'Unprepared', email_address: 'emeka@example.com' });
    await call('POST', '/v1/wallets/fund', key, { user_id: buyer.id, amount: 50_000 });
    const transaction = await call('POST', '/v1/transactions', key, {
      title: 'Logo design',
      description: 'Three concepts',
      buyer_id: buyer.id,
      seller_id: seller.id,
      milestones: [{ title: 'Concepts', description: 'Three logo concepts', amount: 20_000, due_date: new Date(Date.now() + 7 * 86_400_000).toISOString() }],
    });
    const milestoneId = transaction.milestones[0].id;

    await call('POST', `/v1/milestones/${milestoneId}/fund`, key, { buyer_id: buyer.id });
    await call('POST', `/v1/milestones/${milestoneId}/deliver`, key, { seller_id: seller.id, proofs_of_completion: ['https://files.example.com/concepts.pdf'] });
    const approved = await call('POST', `/v1/milestones/${milestoneId}/approve`, key, { buyer_id: buyer.id });
    expect(approved.status).toBe('COMPLETED');

    const milestone = await call('GET', `/v1/milestones/${milestoneId}`, key);
    expect(milestone.milestone_logs).toHaveLength(4);
    expect((await call('GET', `/v1/wallets/${buyer.id}`, key)).balance).toBe(30_000);
    expect((await call('GET', `/v1/wallets/${seller.id}`, key)).balance).toBe(19_800);

    const found = await call('GET', '/v1/users?page=1&limit=10&sort=DESC&search=ngozi', key);
    expect(found.users.map((u: { id: string }) => u.id)).toEqual([buyer.id]);
    const completed = await call('GET', `/v1/transactions?user_id=${seller.id}&status=COMPLETED`, key);
    expect(completed.transactions.map((t: { id: string }) => t.id)).toEqual([transaction.id]);

    const integrity = await call('GET', '/v1/operator/ledger/integrity', server.operatorKey);
    expect(integrity).toMatchObject({ balanced: true, ledger_sum_kobo: 0, unbalanced_transfers: [], accounts_not_matching_entries: [], negative_accounts: [] });
  });
});
