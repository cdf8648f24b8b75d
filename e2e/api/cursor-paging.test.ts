/**
 * Cursor paging (issue #28): every list takes `after=<id>` (a row of that same list) and answers with the rows
 * that follow it in the requested order, the filters still applied, read by keyset rather than OFFSET; each page
 * says in `pagination.nextAfter` where the next one starts, and `total` counts the whole filtered list.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, expectOk, fundWallet, newClient, newDeal, newUser, type TestClient } from './support/api';

type Page = { rows: Array<{ id: string }>; total: number; nextAfter: string | null };

async function read(client: TestClient, path: string, key: string, query: string): Promise<Page> {
  const body = expectOk(await call('GET', `${path}?${query}`, { key: client.secretKey }));
  return { rows: body[key], total: body.pagination.total, nextAfter: body.pagination.nextAfter };
}

/** Every row by page number (limit 100, as far as total says) and by cursor (small pages): the two must agree. */
async function walkBoth(client: TestClient, path: string, key: string, filters: string) {
  const byPage: string[] = [];
  let total = -1;
  for (let page = 1; total < 0 || byPage.length < total; page++) {
    const p = await read(client, path, key, `${filters}&limit=100&page=${page}`);
    total = p.total;
    byPage.push(...p.rows.map((r) => r.id));
    if (p.rows.length === 0) break;
  }
  const byCursor: string[] = [];
  let after: string | null = null;
  let pages = 0;
  do {
    const p: Page = await read(client, path, key, `${filters}&page=1&limit=2${after ? `&after=${after}` : ''}`);
    expect(p.total).toBe(total);
    byCursor.push(...p.rows.map((r) => r.id));
    after = p.nextAfter;
    pages++;
    expect(pages).toBeLessThan(200);
  } while (after !== null);
  expect(byCursor).toEqual(byPage);
  expect(byPage.length).toBe(total);
  return byPage;
}

describe('cursor paging', () => {
  let client: TestClient;
  let stranger: TestClient;
  const deals: Array<Awaited<ReturnType<typeof newDeal>>> = [];

  beforeAll(async () => {
    client = await newClient();
    stranger = await newClient();
    for (let i = 0; i < 5; i++) deals.push(await newDeal(client, [1000 + i], { walletFunds: i < 2 ? 5000 : 0 }));
    // Two funded deals change status: the status facet must follow.
    for (const d of deals.slice(0, 2)) {
      expectOk(await call('POST', `/v1/milestones/${d.milestoneIds[0]}/fund`, { key: client.secretKey, body: { buyer_id: d.buyer.id } }));
    }
    await newDeal(stranger, [500]);
  });

  const lists = [
    { path: '/v1/transactions', key: 'transactions', filters: ['sort=DESC', 'sort=ASC', 'sort=ASC&status=MILESTONE_PENDING_FUNDING', 'sort=DESC&status=MILESTONE_PENDING_FUNDING'] },
    { path: '/v1/users', key: 'users', filters: ['sort=DESC', 'sort=ASC', 'sort=DESC&search=buyer'] },
    { path: '/v1/events', key: 'events', filters: ['sort=ASC', 'sort=ASC&type=transaction.created'] },
  ];

  for (const list of lists) {
    for (const filters of list.filters) {
      it(`${list.path}?${filters}: walking by after gives exactly the rows of page mode, in order`, async () => {
        await walkBoth(client, list.path, list.key, filters);
      });
    }
  }

  it('events: after means recorded after it in either order (newest first, no next cursor), as the unread bell reads it', async () => {
    const all = await read(client, '/v1/events', 'events', 'sort=ASC&limit=100');
    const cursor = all.rows[1]!.id;
    const later = all.rows.slice(2).map((r) => r.id);
    const newestFirst = await read(client, '/v1/events', 'events', `sort=DESC&limit=100&after=${cursor}`);
    expect(newestFirst.rows.map((r) => r.id)).toEqual([...later].reverse());
    expect(newestFirst.nextAfter).toBeNull();
    expect((await read(client, '/v1/events', 'events', `sort=ASC&limit=100&after=${cursor}`)).rows.map((r) => r.id)).toEqual(later);
  });

  it('a party filter pages by cursor too', async () => {
    const ids = await walkBoth(client, '/v1/transactions', 'transactions', `sort=ASC&user_id=${deals[0]!.buyer.id}`);
    expect(ids).toEqual([deals[0]!.transaction.id]);
  });

  it('the last page says nothing follows; a cursor page counts the whole filtered list', async () => {
    const all = await read(client, '/v1/transactions', 'transactions', 'sort=ASC&limit=100');
    expect(all.nextAfter).toBeNull();
    const tail = await read(client, '/v1/transactions', 'transactions', `sort=ASC&limit=100&after=${all.rows[1]!.id}`);
    expect(tail.rows.map((r) => r.id)).toEqual(all.rows.slice(2).map((r) => r.id));
    expect(tail.total).toBe(all.total);
    const first = expectOk(await call('GET', '/v1/transactions?sort=ASC&limit=2', { key: client.secretKey }));
    expect(first.pagination).toMatchObject({ nextAfter: all.rows[1]!.id, hasNextPage: true, total: all.total });
  });

  const cursorLists = ['/v1/transactions', '/v1/users', '/v1/events', '/v1/emails', '/v1/payouts', '/v1/dispute', '/v1/wallets/banks/list'];

  it('an unknown or another client\'s cursor is 404, a malformed one 400, and after with page=2 is 400', async () => {
    const foreign = {
      '/v1/transactions': (await read(stranger, '/v1/transactions', 'transactions', 'limit=1')).rows[0]!.id,
      '/v1/users': (await read(stranger, '/v1/users', 'users', 'page=1&limit=1&sort=DESC')).rows[0]!.id,
      '/v1/events': (await read(stranger, '/v1/events', 'events', 'limit=1')).rows[0]!.id,
    } as Record<string, string>;
    const own = (await read(client, '/v1/transactions', 'transactions', 'limit=1')).rows[0]!.id;
    for (const list of cursorLists) {
      // The spec's user list takes page, limit and sort always.
      const path = list === '/v1/users' ? '/v1/users?limit=20&sort=DESC&' : `${list}?`;
      const pageOne = list === '/v1/users' ? '&page=1' : '';
      expectError(await call('GET', `${path}after=${randomUUID()}${pageOne}`, { key: client.secretKey }), 404, 'NOT_FOUND');
      if (foreign[list]) expectError(await call('GET', `${path}after=${foreign[list]}${pageOne}`, { key: client.secretKey }), 404, 'NOT_FOUND');
      expectError(await call('GET', `${path}after=not-a-uuid${pageOne}`, { key: client.secretKey }), 400, 'VALIDATION_ERROR');
      expectError(await call('GET', `${path}after=${own}&page=2`, { key: client.secretKey }), 400, 'VALIDATION_ERROR', /after/);
    }
  });

  it('a fresh user and wallet funding move the totals exactly', async () => {
    const before = await read(client, '/v1/users', 'users', 'page=1&limit=1&sort=DESC');
    const user = await newUser(client, 'Late');
    await fundWallet(client, user.id, 100);
    const after = await read(client, '/v1/users', 'users', 'page=1&limit=1&sort=DESC');
    expect(after.total).toBe(before.total + 1);
    expect(after.rows[0]!.id).toBe(user.id);
  });
});
