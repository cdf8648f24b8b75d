import fs from 'node:fs';
import path from 'node:path';
import type { Page, Response } from '@playwright/test';
import { api, DEMO, expect, signedInPage, test } from './support';

/**
 * The client secret key the dashboard calls the API with must never reach a browser: not in the client
 * bundles of the build, not in any HTML page, RSC payload or data response, for anyone signed in or not.
 * The key is the demo client's, read from the server's database by the global setup.
 */
const secretKey = () => process.env.DASHBOARD_DEMO_SECRET_KEY as string;
const STATIC = path.resolve(__dirname, '../../.next/static');

function* files(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

test('no file under .next/static contains the secret key', () => {
  expect(secretKey()).toMatch(/^sk_test_/);
  const needle = Buffer.from(secretKey());
  let scanned = 0;
  for (const file of files(STATIC)) {
    scanned++;
    expect(fs.readFileSync(file).includes(needle), `${path.relative(STATIC, file)} contains the secret key`).toBe(false);
  }
  expect(scanned).toBeGreaterThan(10);
});

/** Visits each path, watching every response the browser receives, then fetches the raw HTML too. */
async function crawl(page: Page, paths: string[]): Promise<number> {
  const seen: Array<Promise<void>> = [];
  const listener = (response: Response) => {
    const type = response.request().resourceType();
    if (['image', 'media', 'font'].includes(type)) return;
    seen.push(
      response
        .body()
        .then((body) => expect(body.includes(Buffer.from(secretKey())), `${response.url()} contains the secret key`).toBe(false))
        .catch(() => undefined),
    );
  };
  page.on('response', listener);
  for (const p of paths) {
    await page.goto(p);
    await page.waitForLoadState('networkidle');
    const html = await (await page.request.get(p)).text();
    expect(html.includes(secretKey()), `HTML of ${p} contains the secret key`).toBe(false);
    // The RSC payload a client-side navigation fetches.
    const rsc = await (await page.request.get(p, { headers: { rsc: '1' } })).text();
    expect(rsc.includes(secretKey()), `RSC payload of ${p} contains the secret key`).toBe(false);
  }
  page.off('response', listener);
  await Promise.all(seen);
  return seen.length;
}

test('no page, RSC payload or data response contains the secret key, whoever asks', async ({ browser, page }) => {
  test.setTimeout(240_000);
  const list = await api<{ transactions: Array<{ id: string }> }>(secretKey(), 'GET', '/v1/transactions?page=1&limit=100');
  const transactions = list.transactions.map((t) => `/transactions/${t.id}`);
  const disputes = await api<{ disputes: Array<{ id: string }> }>(secretKey(), 'GET', '/v1/dispute?page=1&limit=10');
  const disputePages = disputes.disputes.map((d) => `/disputes/${d.id}`);
  const users = await api<{ users: Array<{ id: string }> }>(secretKey(), 'GET', '/v1/users?page=1&limit=3&sort=ASC');

  let responses = await crawl(page, ['/', '/login', '/invite/not-a-real-invite-token-000000', '/docs']);

  const admin = await signedInPage(browser, DEMO.admin);
  responses += await crawl(admin, [
    '/admin/transactions',
    '/admin/transactions/new',
    '/admin/customers',
    ...users.users.map((u) => `/admin/customers/${u.id}`),
    '/admin/bank-accounts',
    '/admin/payouts',
    '/admin/webhooks',
    '/admin/outbox',
    '/admin/audit',
    ...transactions.slice(0, 3),
    ...disputePages,
    '/data/customers',
    '/data/admin-transactions',
    '/data/bank-accounts',
    '/data/payouts',
    '/data/webhooks',
    '/data/notifications',
  ]);
  for (const who of [DEMO.buyer, DEMO.seller]) {
    const customer = await signedInPage(browser, who);
    responses += await crawl(customer, ['/transactions', '/wallet', ...transactions, ...disputePages, '/data/my-transactions', '/data/wallet', '/data/payouts', '/data/bank-accounts', '/data/notifications']);
  }
  expect(responses).toBeGreaterThan(50);
});
