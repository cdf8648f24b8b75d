import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page, Response } from '@playwright/test';
import { acceptInviteAndSignIn } from './staging';
import { api, DEMO, expect, signedInPage, test, unique } from './support';

/**
 * The client secret keys the dashboard calls the API with must never reach a browser: not in the client
 * bundles of the build, not in any HTML page, RSC payload or data response, for anyone signed in or not.
 * The dashboard holds several clients' keys (decisions §14): the demo client's, read from the server's
 * database by the global setup, and a second client's, handed to the dashboard in the operator console.
 */
const secretKey = () => process.env.DASHBOARD_DEMO_SECRET_KEY as string;
const PASSWORD = 'key leak password 123';
/** Every secret key the dashboard holds in this spec. */
const heldKeys: string[] = [];
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
        .then((body) => {
          for (const key of heldKeys) expect(body.includes(Buffer.from(key)), `${response.url()} contains a secret key`).toBe(false);
        })
        .catch(() => undefined),
    );
  };
  page.on('response', listener);
  for (const p of paths) {
    await page.goto(p);
    await page.waitForLoadState('networkidle');
    const html = await (await page.request.get(p)).text();
    // The RSC payload a client-side navigation fetches.
    const rsc = await (await page.request.get(p, { headers: { rsc: '1' } })).text();
    for (const key of heldKeys) {
      expect(html.includes(key), `HTML of ${p} contains a secret key`).toBe(false);
      expect(rsc.includes(key), `RSC payload of ${p} contains a secret key`).toBe(false);
    }
  }
  page.off('response', listener);
  await Promise.all(seen);
  return seen.length;
}

const acceptAndSignIn = (browser: Browser, link: string, email: string) =>
  acceptInviteAndSignIn(browser, { base: process.env.DASHBOARD_BASE_URL!, link, email, password: PASSWORD, home: /\/(operator\/clients|admin\/overview)$/ });

/**
 * An operator (made as `npm run create-operator` makes one) connects a second client's key in the console
 * and invites that client's admin: the dashboard now holds two clients' keys.
 */
async function secondClient(browser: Browser): Promise<{ operator: Page; admin: Page; clientId: string }> {
  const base = process.env.DASHBOARD_BASE_URL!;
  const operatorKey = process.env.DASHBOARD_OPERATOR_KEY!;
  const operatorEmail = `key.leak.operator.${unique()}@example.com`;
  const made = await fetch(`${base}/api/operators`, { method: 'POST', headers: { authorization: operatorKey, 'content-type': 'application/json' }, body: JSON.stringify({ email: operatorEmail }) });
  const link = ((await made.json()) as { data: { sign_in_url: string } }).data.sign_in_url;
  const operator = await acceptAndSignIn(browser, link, operatorEmail);
  const client = await api<{ id: string; secret_key: string }>(operatorKey, 'POST', '/v1/operator/clients', { name: `Key leak market ${unique()}`, mode: 'test' });
  heldKeys.push(client.secret_key);
  await operator.goto(`/operator/clients/${client.id}`);
  const connect = operator.getByRole('form', { name: 'Connect a secret key' });
  await connect.getByLabel('Secret key of this client').fill(client.secret_key);
  await connect.getByRole('button', { name: 'Connect key' }).click();
  await expect(operator.getByText('key held')).toBeVisible();
  const adminEmail = `key.leak.admin.${unique()}@example.com`;
  const invite = operator.getByRole('form', { name: 'Invite an admin' });
  await invite.getByLabel('Name').fill('Second admin');
  await invite.getByLabel('Email').fill(adminEmail);
  await invite.getByRole('button', { name: 'Send invite' }).click();
  const adminLink = await operator.getByTestId('invite-link').inputValue();
  const admin = await acceptAndSignIn(browser, adminLink, adminEmail);
  return { operator, admin, clientId: client.id };
}

test('no page, RSC payload or data response contains a secret key, whoever asks, with several clients’ keys held', async ({ browser, page }) => {
  test.setTimeout(300_000);
  heldKeys.push(secretKey());
  const second = await secondClient(browser);
  const list = await api<{ transactions: Array<{ id: string; status: string }> }>(secretKey(), 'GET', '/v1/transactions?page=1&limit=100');
  // What a transaction page shows follows its state, not its row: the newest three and the newest of each status
  // rather than a hundred pages of one template, which made this the browser suite's slowest test.
  const newestOfEachStatus = [...new Map(list.transactions.toReversed().map((t) => [t.status, t])).values()];
  const sampled = new Set([...list.transactions.slice(0, 3), ...newestOfEachStatus]);
  const transactions = [...sampled].map((t) => `/transactions/${t.id}`);
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
    '/admin/keys',
    '/admin/team',
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
  responses += await crawl(second.admin, ['/admin/transactions', '/admin/customers', '/admin/keys', '/admin/team', '/admin/webhooks', '/data/customers', '/data/notifications']);
  responses += await crawl(second.operator, ['/operator/clients', `/operator/clients/${second.clientId}`, '/dispute-team']);
  expect(heldKeys).toHaveLength(2);
  expect(responses).toBeGreaterThan(60);
});
