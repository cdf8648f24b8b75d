/**
 * Totals kept by the database (issue #28, lib/server/db/list-counts.ts): a list's `total` is read from counts
 * its rows' writes keep, not counted per request. Whatever happens to the rows (made one by one or many at
 * once, moved between statuses, a wallet funded and spent), each kept total equals the rows the list shows,
 * read page by page; a request with a filter no count is kept for (a search, a date range) is counted and
 * agrees; and a total reads the same before and after the background worker folds the pending changes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectOk, fundWallet, newClient, newDeal, newUser, type TestClient } from './support/api';

/** Every row of a list, page by page (limit 100), and the total each page reported. */
async function everyRow(client: TestClient, path: string, key: string, query: string): Promise<{ ids: string[]; totals: number[] }> {
  const ids: string[] = [];
  const totals: number[] = [];
  for (let page = 1; page < 50; page++) {
    const body = expectOk(await call('GET', `${path}?${query}${query ? '&' : ''}limit=100&page=${page}`, { key: client.secretKey }));
    totals.push(body.pagination.total);
    if (body[key].length === 0) break;
    ids.push(...body[key].map((r: { id: string }) => r.id));
  }
  return { ids, totals };
}

async function expectTotalIsRows(client: TestClient, path: string, key: string, query: string, expected?: number) {
  const { ids, totals } = await everyRow(client, path, key, query);
  expect(new Set(totals), `${path}?${query}: every page reports one total`).toEqual(new Set([ids.length]));
  expect(new Set(ids).size).toBe(ids.length);
  if (expected !== undefined) expect(ids.length, `${path}?${query}`).toBe(expected);
  return ids.length;
}

describe('list totals kept by the database', () => {
  let client: TestClient;
  let other: TestClient;
  let deals: Array<Awaited<ReturnType<typeof newDeal>>>;

  beforeAll(async () => {
    client = await newClient();
    other = await newClient();
    // Several at once: the writes of concurrent requests each append their own change.
    deals = await Promise.all(Array.from({ length: 6 }, (_, i) => newDeal(client, [1000 + i, 500], { walletFunds: i < 3 ? 10_000 : 0 })));
    await newDeal(other, [700]);
    // Three deals move on: funded (one milestone, then both), so their transaction's status changes.
    for (const d of deals.slice(0, 3)) {
      expectOk(await call('POST', `/v1/milestones/${d.milestoneIds[0]}/fund`, { key: client.secretKey, body: { buyer_id: d.buyer.id } }));
    }
    expectOk(await call('POST', `/v1/milestones/${deals[0]!.milestoneIds[1]}/fund`, { key: client.secretKey, body: { buyer_id: deals[0]!.buyer.id } }));
  });

  it('transactions: the whole list and each status, party and party-and-status facet equal the rows listed', async () => {
    await expectTotalIsRows(client, '/v1/transactions', 'transactions', '', 6);
    const statuses = new Map<string, number>();
    for (const d of deals) {
      const t = expectOk(await call('GET', `/v1/transactions/${d.transaction.id}`, { key: client.secretKey }));
      statuses.set(t.status, (statuses.get(t.status) ?? 0) + 1);
    }
    // At least two statuses: the funding above moved some deals out of the first.
    expect(statuses.size).toBeGreaterThan(1);
    for (const [status, n] of statuses) await expectTotalIsRows(client, '/v1/transactions', 'transactions', `status=${status}`, n);
    await expectTotalIsRows(client, '/v1/transactions', 'transactions', 'status=COMPLETED', 0);
    const funded = deals[0]!;
    const fundedStatus = expectOk(await call('GET', `/v1/transactions/${funded.transaction.id}`, { key: client.secretKey })).status;
    await expectTotalIsRows(client, '/v1/transactions', 'transactions', `user_id=${funded.buyer.id}`, 1);
    await expectTotalIsRows(client, '/v1/transactions', 'transactions', `user_id=${funded.seller.id}&status=${fundedStatus}`, 1);
    await expectTotalIsRows(client, '/v1/transactions', 'transactions', `user_id=${funded.seller.id}&status=COMPLETED`, 0);
    // Counted, not kept: a search and a date range agree with the kept totals.
    await expectTotalIsRows(client, '/v1/transactions', 'transactions', 'search=Test%20deal', 6);
    await expectTotalIsRows(client, '/v1/transactions', 'transactions', 'created_from=2000-01-01', 6);
  });

  it('users, events and a wallet history equal the rows listed, and another client\'s writes are not in them', async () => {
    await expectTotalIsRows(client, '/v1/users', 'users', 'sort=DESC', 12);
    await expectTotalIsRows(other, '/v1/users', 'users', 'sort=DESC', 2);
    const events = await expectTotalIsRows(client, '/v1/events', 'events', '');
    const created = await expectTotalIsRows(client, '/v1/events', 'events', 'type=transaction.created', 6);
    expect(events).toBeGreaterThan(created);
    await expectTotalIsRows(client, '/v1/events', 'events', `transaction_id=${deals[0]!.transaction.id}`);
    // Funded, then paid two milestones: three lines; a wallet never funded has none.
    await expectTotalIsRows(client, `/v1/wallets/${deals[0]!.buyer.id}/history`, 'entries', '', 3);
    await expectTotalIsRows(client, `/v1/wallets/${deals[5]!.buyer.id}/history`, 'entries', '', 0);
  });

  it('a total follows a burst of writes exactly, and reads the same once the background worker has folded it', async () => {
    const buyer = await newUser(client, 'Burst');
    await fundWallet(client, buyer.id, 100);
    await Promise.all(Array.from({ length: 10 }, () => fundWallet(client, buyer.id, 1)));
    const history = `/v1/wallets/${buyer.id}/history`;
    await expectTotalIsRows(client, history, 'entries', '', 11);
    await expectTotalIsRows(client, '/v1/users', 'users', 'sort=DESC', 13);
    // The worker folds every second; the totals must not move when it does.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await expectTotalIsRows(client, history, 'entries', '', 11);
    await expectTotalIsRows(client, '/v1/users', 'users', 'sort=DESC', 13);
    await expectTotalIsRows(client, '/v1/transactions', 'transactions', '', 6);
  });
});
