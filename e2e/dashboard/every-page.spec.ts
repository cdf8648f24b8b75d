import type { Browser, Page, Response } from '@playwright/test';
import { adminMoneyPages, adminSettingsPages, customerPages, disputeTeamPages, operatorPages, stageTourRecords, type TourRecords, type Visit } from './page-tour';
import { acceptInviteAndSignIn } from './staging';
import { api, DEMO, demoKey, expect, horizontalOverflow, seriousAxeViolations, shot, signedInPage, test, unique } from './support';

/**
 * Every page of the dashboard, in every role, at 1280 px and at a 390 px phone width: no serious or critical
 * axe-core violation, nothing wider than the phone, and with E2E_SCREENSHOTS=1 a screenshot of each (e2e/.artifacts/screenshots/every-page).
 * The case before the dispute team belongs to a client of its own, whose test clock it moves (never the demo's).
 *
 * The same crawl hunts the client secret keys the dashboard calls the API with, which must never reach a browser: not
 * in any HTML page, RSC payload or data response, for anyone signed in or not (the client bundles: key-leak.spec.ts).
 * The dashboard holds several clients' keys (docs/decisions.md §14): the demo client's, read from the server's database by the
 * global setup, and a second client's, handed to the dashboard in the operator console before the tours start.
 */

const WIDTHS = [
  { name: 'wide', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;


/** Every secret key the dashboard holds while this worker's tours run. */
const heldKeys: string[] = [];
const PASSWORD = 'every page password 123';

/**
 * Watches every response the page receives (images, media and fonts aside) for a held key, until `done`, which
 * says how many it read. A response whose body cannot be read (a redirect, a page already gone) has nothing to leak.
 */
function watchForKeys(page: Page): { done: () => Promise<number> } {
  const checked: Array<Promise<void>> = [];
  const listener = (response: Response) => {
    if (['image', 'media', 'font'].includes(response.request().resourceType())) return;
    const read = response.body().then(
      (body) => body,
      () => undefined,
    );
    checked.push(
      read.then((body) => {
        if (!body) return;
        for (const key of heldKeys) expect(body.includes(Buffer.from(key)), `${response.url()} contains a secret key`).toBe(false);
      }),
    );
  };
  page.on('response', listener);
  return {
    done: async () => {
      page.off('response', listener);
      await Promise.all(checked);
      return checked.length;
    },
  };
}

/** The raw HTML of `path` and the RSC payload a client-side navigation to it fetches, as the page's person asks. */
async function expectNoKeyInPayloads(page: Page, path: string): Promise<void> {
  const html = await (await page.request.get(path)).text();
  const rsc = await (await page.request.get(path, { headers: { rsc: '1' } })).text();
  for (const key of heldKeys) {
    expect(html.includes(key), `HTML of ${path} contains a secret key`).toBe(false);
    expect(rsc.includes(key), `RSC payload of ${path} contains a secret key`).toBe(false);
  }
}

/**
 * What a crawled page fetches once it has loaded, which the hunt waits for: the API reference's whole document.
 * Waiting for the network to go quiet instead has no bound while Scalar renders on a busy machine.
 */
const FETCHED_AFTER_LOAD: Record<string, string> = { '/docs': '/v1/openapi.json' };

/**
 * Each visit at both widths (axe, overflow, screenshot) and hunted for keys; then `alsoCrawled` (more pages of the same
 * templates in other states, and data routes) hunted for keys only.
 */
async function checkEveryPage(page: Page, role: string, visits: Visit[], alsoCrawled: string[] = []): Promise<void> {
  const problems: string[] = [];
  const watch = watchForKeys(page);
  for (const visit of visits) {
    await page.setViewportSize(WIDTHS[0]);
    const response = await page.goto(visit.path);
    expect(response?.status(), `${role} ${visit.path}`).toBeLessThan(500);
    await expect(page.locator('h1').first()).toBeVisible();
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await shot(page, `every-page/${role}-${visit.name}-${size.name}`);
      for (const violation of await seriousAxeViolations(page)) problems.push(`${role} ${visit.path} at ${size.width} px: ${violation}`);
      const overflow = await horizontalOverflow(page);
      if (overflow > 0) problems.push(`${role} ${visit.path} at ${size.width} px: ${overflow} px wider than the window`);
    }
    await expectNoKeyInPayloads(page, visit.path);
  }
  await page.setViewportSize(WIDTHS[0]);
  for (const path of alsoCrawled) {
    const fetchedLater = FETCHED_AFTER_LOAD[path];
    const fetched = fetchedLater ? page.waitForResponse((r) => new URL(r.url()).pathname === fetchedLater, { timeout: 120_000 }) : undefined;
    await page.goto(path);
    await fetched;
    await expectNoKeyInPayloads(page, path);
  }
  const responses = await watch.done();
  expect(heldKeys).toHaveLength(2);
  expect(responses, `${role}: responses read for keys`).toBeGreaterThanOrEqual(visits.length + alsoCrawled.length);
  expect(problems).toEqual([]);
}

const acceptAndSignIn = (browser: Browser, link: string, email: string) =>
  acceptInviteAndSignIn(browser, { base: process.env.DASHBOARD_BASE_URL!, link, email, password: PASSWORD, home: /\/(operator\/clients|admin\/overview)$/ });

/**
 * An operator (made as `npm run create-operator` makes one) connects a second client's key in the console and invites
 * that client's admin: the dashboard now holds two clients' keys.
 */
async function secondClient(browser: Browser): Promise<{ operator: Page; admin: Page; clientId: string; secretKey: string }> {
  const base = process.env.DASHBOARD_BASE_URL!;
  const operatorKey = process.env.DASHBOARD_OPERATOR_KEY!;
  const operatorEmail = `every.page.operator.${unique()}@example.com`;
  const made = await fetch(`${base}/api/operators`, { method: 'POST', headers: { authorization: operatorKey, 'content-type': 'application/json' }, body: JSON.stringify({ email: operatorEmail }) });
  const link = ((await made.json()) as { data: { sign_in_url: string } }).data.sign_in_url;
  const operator = await acceptAndSignIn(browser, link, operatorEmail);
  const client = await api<{ id: string; secret_key: string }>(operatorKey, 'POST', '/v1/operator/clients', { name: `Every page market ${unique()}`, mode: 'test' });
  await operator.goto(`/operator/clients/${client.id}`);
  const connect = operator.getByRole('form', { name: 'Connect a secret key' });
  await connect.getByLabel('Secret key of this client').fill(client.secret_key);
  await connect.getByRole('button', { name: 'Connect key' }).click();
  await expect(operator.getByText('key held')).toBeVisible();
  const adminEmail = `every.page.admin.${unique()}@example.com`;
  const invite = operator.getByRole('form', { name: 'Invite an admin' });
  await invite.getByLabel('Name').fill('Second admin');
  await invite.getByLabel('Email').fill(adminEmail);
  await invite.getByRole('button', { name: 'Send invite' }).click();
  const adminLink = await operator.getByTestId('invite-link').inputValue();
  const admin = await acceptAndSignIn(browser, adminLink, adminEmail);
  return { operator, admin, clientId: client.id, secretKey: client.secret_key };
}

// The tours are independent: the two workers share them (each stages its own deal, case and second client first).
test.describe.configure({ mode: 'parallel' });

let records: TourRecords;
let second: Awaited<ReturnType<typeof secondClient>>;
/** More pages of the templates the tours check, in the states the demo's deals are in: hunted for keys only. */
let sampled: { transactions: string[]; disputes: string[]; customers: string[] };

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  records = await stageTourRecords(`Every page ${unique()}`);

  heldKeys.push(demoKey());
  second = await secondClient(browser);
  heldKeys.push(second.secretKey);
  const list = await api<{ transactions: Array<{ id: string; status: string }> }>(demoKey(), 'GET', '/v1/transactions?page=1&limit=100');
  // What a transaction page shows follows its state, not its row: the newest three and the newest of each status.
  const newestOfEachStatus = [...new Map(list.transactions.toReversed().map((t) => [t.status, t])).values()];
  const disputes = await api<{ disputes: Array<{ id: string }> }>(demoKey(), 'GET', '/v1/dispute?page=1&limit=10');
  const users = await api<{ users: Array<{ id: string }> }>(demoKey(), 'GET', '/v1/users?page=1&limit=3&sort=ASC');
  sampled = {
    transactions: [...new Set([...list.transactions.slice(0, 3), ...newestOfEachStatus])].map((t) => `/transactions/${t.id}`),
    disputes: disputes.disputes.map((d) => `/disputes/${d.id}`),
    customers: users.users.map((u) => `/admin/customers/${u.id}`),
  };
});

test('signed out: sign-in, a dead invite link and a page that does not exist; the API reference hunted for keys', async ({ page }) => {
  test.setTimeout(420_000);
  await checkEveryPage(
    page,
    'visitor',
    [
      { name: 'login', path: '/login' },
      { name: 'invite-expired', path: '/invite/not-a-real-invite-token-000000' },
      { name: 'not-found', path: '/no-such-page' },
    ],
    // The API reference is Scalar's page, read with axe at both widths by api-reference.spec.ts (which names the Scalar markup it excuses).
    ['/', '/docs'],
  );
});

// Each tour gets minutes: on a busy machine (CI runs two browsers beside the server) a page's two screenshots
// and two axe runs take tens of seconds.
test('the client admin’s money pages', async ({ browser }) => {
  test.setTimeout(420_000);
  const admin = await signedInPage(browser, DEMO.admin);
  await checkEveryPage(
    admin,
    'admin',
    adminMoneyPages(records),
    [...sampled.customers, ...sampled.transactions.slice(0, 3), ...sampled.disputes, '/data/customers', '/data/admin-transactions', '/data/bank-accounts', '/data/payouts'],
  );
});

test('the client admin’s settings pages', async ({ browser }) => {
  test.setTimeout(420_000);
  const admin = await signedInPage(browser, DEMO.admin);
  await checkEveryPage(
    admin,
    'admin',
    [...adminSettingsPages, { name: 'not-found', path: '/transactions/00000000-0000-4000-8000-000000000000' }],
    ['/data/webhooks', '/data/notifications'],
  );
});

test('the buyer’s and the seller’s pages', async ({ browser }) => {
  test.setTimeout(420_000);
  for (const [role, who] of [['buyer', DEMO.buyer], ['seller', DEMO.seller]] as const) {
    const page = await signedInPage(browser, who);
    await checkEveryPage(
      page,
      role,
      customerPages(records),
      [...sampled.transactions, ...sampled.disputes, '/data/my-transactions', '/data/wallet', '/data/payouts', '/data/bank-accounts', '/data/notifications'],
    );
    await page.context().close();
  }
});

test('the dispute team’s and the operator’s pages', async ({ browser }) => {
  test.setTimeout(420_000);
  const team = await signedInPage(browser, DEMO.disputes);
  await checkEveryPage(team, 'dispute-team', disputeTeamPages);
  const clients = await api<{ clients: Array<{ id: string; name: string }> }>(process.env.DASHBOARD_OPERATOR_KEY!, 'GET', '/v1/operator/clients');
  await checkEveryPage(
    second.operator,
    'operator',
    operatorPages(records, clients.clients[0]!.id),
    [`/operator/clients/${second.clientId}`],
  );
});

test('the second client’s admin: its pages hold no key, its own or the demo client’s', async () => {
  test.setTimeout(300_000);
  await checkEveryPage(second.admin, 'second-admin', [], ['/admin/transactions', '/admin/customers', '/admin/keys', '/admin/team', '/admin/webhooks', '/data/customers', '/data/notifications']);
});
