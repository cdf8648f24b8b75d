/**
 * Cursor paging (issue #28): every list takes `after=<id>` (a row of that same list) and answers with the rows
 * that follow it in the requested order, the filters still applied, read by keyset rather than OFFSET; each page
 * says in `pagination.nextAfter` where the next one starts, and `total` counts the whole filtered list.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, expectOk, fundWallet, newClient, newDeal, newUser, operatorKey, type TestClient } from './support/api';

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
  let saver: { id: string };
  let hook: string;
  let otherHook: string;
  let strangerDeal: Awaited<ReturnType<typeof newDeal>>;
  let strangerHook: string;

  /** An endpoint nobody listens on: its deliveries stay in its log, failing. */
  const newWebhook = async (owner: TestClient) =>
    expectOk(await call('POST', '/v1/webhooks', { key: owner.secretKey, body: { url: 'http://127.0.0.1:9/cursor-paging' } })).id as string;

  beforeAll(async () => {
    client = await newClient();
    stranger = await newClient();
    hook = await newWebhook(client);
    for (let i = 0; i < 5; i++) deals.push(await newDeal(client, [1000 + i], { walletFunds: i < 2 ? 5000 : 0 }));
    // Two funded deals change status: the status facet must follow.
    for (const d of deals.slice(0, 2)) {
      expectOk(await call('POST', `/v1/milestones/${d.milestoneIds[0]}/fund`, { key: client.secretKey, body: { buyer_id: d.buyer.id } }));
    }
    saver = await newUser(client, 'Saver');
    for (let i = 1; i <= 5; i++) await fundWallet(client, saver.id, 100 * i);
    // A second endpoint of the same client, with deliveries of its own: not rows of the first one's log.
    otherHook = await newWebhook(client);
    await fundWallet(client, saver.id, 50);
    strangerHook = await newWebhook(stranger);
    strangerDeal = await newDeal(stranger, [500], { walletFunds: 1000 });
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

  const historyFilters = [''];
  for (const filters of historyFilters) {
    it(`wallet history${filters ? `?${filters}` : ''}: walking by after gives exactly the rows of page mode, newest first`, async () => {
      expect(await walkBoth(client, `/v1/wallets/${saver.id}/history`, 'entries', filters)).toHaveLength(6);
      await walkBoth(client, `/v1/wallets/${deals[0]!.buyer.id}/history`, 'entries', filters);
    });
  }

  for (const filters of ['sort=DESC', 'sort=ASC']) {
    it(`webhook deliveries?${filters}: walking by after gives exactly the rows of page mode, in order`, async () => {
      // One statement's events share their time (funding a milestone records several): the walk crosses those ties.
      expect((await walkBoth(client, `/v1/webhooks/${hook}/deliveries`, 'deliveries', filters)).length).toBeGreaterThan(10);
      expect(await walkBoth(client, `/v1/webhooks/${otherHook}/deliveries`, 'deliveries', filters)).toHaveLength(1);
    });
  }

  it('/v1/operator/clients: walking by after, oldest and newest first, gives exactly the rows of page mode', async () => {
    const get = async (query: string) => expectOk(await call('GET', `/v1/operator/clients?${query}`, { key: operatorKey() }));
    const ids = (body: { clients: Array<{ id: string }> }) => body.clients.map((c) => c.id);
    // Other suites add clients meanwhile, always after the newest: the list up to this file's client stays as it is.
    const byPage: string[] = [];
    for (let page = 1; !byPage.includes(client.id); page++) {
      const body = await get(`sort=ASC&limit=100&page=${page}`);
      expect(body.clients.length).toBeGreaterThan(0);
      byPage.push(...ids(body));
    }
    const upTo = byPage.slice(0, byPage.indexOf(client.id) + 1);
    const oldestFirst: string[] = [];
    let after: string | null = null;
    do {
      const body = await get(`sort=ASC&limit=7${after ? `&after=${after}` : ''}`);
      oldestFirst.push(...ids(body));
      after = body.pagination.nextAfter;
    } while (after !== null && !oldestFirst.includes(client.id));
    expect(oldestFirst.slice(0, upTo.length)).toEqual(upTo);
    const newestFirst: string[] = [];
    after = client.id;
    do {
      const body = await get(`sort=DESC&limit=7&after=${after}`);
      newestFirst.push(...ids(body));
      after = body.pagination.nextAfter;
    } while (after !== null);
    expect(newestFirst).toEqual(upTo.slice(0, -1).reverse());
  });

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

  const cursorLists = () => [
    '/v1/transactions',
    '/v1/users',
    '/v1/events',
    '/v1/emails',
    '/v1/payouts',
    '/v1/dispute',
    '/v1/wallets/banks/list',
    `/v1/wallets/${saver.id}/history`,
    `/v1/webhooks/${hook}/deliveries`,
  ];

  it('an unknown or another client\'s cursor is 404, a malformed one 400, and after with page=2 is 400', async () => {
    const foreign = {
      '/v1/transactions': [(await read(stranger, '/v1/transactions', 'transactions', 'limit=1')).rows[0]!.id],
      '/v1/users': [(await read(stranger, '/v1/users', 'users', 'page=1&limit=1&sort=DESC')).rows[0]!.id],
      '/v1/events': [(await read(stranger, '/v1/events', 'events', 'limit=1')).rows[0]!.id],
      // Another client's entry, and one of another wallet of this client: the cursor is an entry of this wallet.
      [`/v1/wallets/${saver.id}/history`]: [
        (await read(stranger, `/v1/wallets/${strangerDeal.buyer.id}/history`, 'entries', 'limit=1')).rows[0]!.id,
        (await read(client, `/v1/wallets/${deals[0]!.buyer.id}/history`, 'entries', 'limit=1')).rows[0]!.id,
      ],
      // Another client's delivery, and one of this client's other endpoint.
      [`/v1/webhooks/${hook}/deliveries`]: [
        (await read(stranger, `/v1/webhooks/${strangerHook}/deliveries`, 'deliveries', 'limit=1')).rows[0]!.id,
        (await read(client, `/v1/webhooks/${otherHook}/deliveries`, 'deliveries', 'limit=1')).rows[0]!.id,
      ],
    } as Record<string, string[]>;
    const own = (await read(client, '/v1/transactions', 'transactions', 'limit=1')).rows[0]!.id;
    for (const list of cursorLists()) {
      // The spec's user list takes page, limit and sort always.
      const path = list === '/v1/users' ? '/v1/users?limit=20&sort=DESC&' : `${list}?`;
      const pageOne = list === '/v1/users' ? '&page=1' : '';
      expectError(await call('GET', `${path}after=${randomUUID()}${pageOne}`, { key: client.secretKey }), 404, 'NOT_FOUND');
      for (const id of foreign[list] ?? []) expectError(await call('GET', `${path}after=${id}${pageOne}`, { key: client.secretKey }), 404, 'NOT_FOUND');
      expectError(await call('GET', `${path}after=not-a-uuid${pageOne}`, { key: client.secretKey }), 400, 'VALIDATION_ERROR');
      expectError(await call('GET', `${path}after=${own}&page=2`, { key: client.secretKey }), 400, 'VALIDATION_ERROR', /after/);
    }
    const operator = { key: operatorKey() };
    expectError(await call('GET', `/v1/operator/clients?after=${randomUUID()}`, operator), 404, 'NOT_FOUND');
    expectError(await call('GET', '/v1/operator/clients?after=not-a-uuid', operator), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `/v1/operator/clients?after=${client.id}&page=2`, operator), 400, 'VALIDATION_ERROR', /after/);
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
