import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page, Request } from '@playwright/test';
import { startTestServer, type TestServer } from '../support/test-server';
import { acceptInviteAndSignIn } from './staging';
import { apiAt, expect, expectToast, isServerAction, shot, test, unique } from './support';

/**
 * The README's path for a marketplace that deploys Escrow Desk (issue #26): a fresh server without demo
 * data, the first operator from `npm run create-operator`, a live and a test client made in the operator
 * console, each one's admin invited by email and signed in, a customer created, the key rolled. Then the
 * two admins side by side (docs/decisions.md §14, one dashboard for many clients): each sees and changes only its
 * own client's customers, webhooks and keys, through the pages and through server actions replayed by hand.
 */
test.describe.configure({ mode: 'serial' });

const ROOT = path.resolve(__dirname, '../..');
const PASSWORD = 'a long enough password 1';

let server: TestServer;
let operator: Page;
const clients: Record<'live' | 'test', { id: string; name: string; admin: { email: string; page?: Page }; customer?: string; key?: string }> = {
  live: { id: '', name: `Lagos Live Market ${unique()}`, admin: { email: `live.admin.${unique()}@example.com` } },
  test: { id: '', name: `Kano Test Bazaar ${unique()}`, admin: { email: `test.admin.${unique()}@example.com` } },
};

function createOperator(args: string[], key = server.operatorKey) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/create-operator.ts', ...args, '--url', server.baseUrl], {
    cwd: ROOT,
    env: { ...process.env, ESCROW_OPERATOR_KEY: key },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext({ baseURL: server.baseUrl })).newPage();
}

const acceptAndSignIn = (browser: Browser, link: string, email: string, home: RegExp) =>
  acceptInviteAndSignIn(browser, { base: server.baseUrl, link, email, password: PASSWORD, home });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startTestServer({ seedDemo: false });
});

test.afterAll(async () => {
  await server?.stop();
});

test('the first operator comes from the documented command: a one-time sign-in link, never a password', async ({ browser }) => {
  test.setTimeout(180_000);
  // Without the operator key the server says what is missing, and makes nobody.
  const refused = createOperator(['--email', 'ops@example.com'], 'op_wrong_key_0123456789');
  expect(refused.code).toBe(1);
  expect(refused.out).toContain('needs the operator key');
  const missing = createOperator([]);
  expect(missing.code).toBe(1);
  expect(missing.out).toContain('--email');

  const made = createOperator(['--email', 'Ops@Example.com', '--name', 'Olu Operator']);
  expect(made.code, made.out).toBe(0);
  const link = /(http:\/\/\S+\/invite\/[A-Za-z0-9_-]+)/.exec(made.out)?.[1];
  expect(link, made.out).toBeDefined();
  expect(made.out).not.toMatch(/password:/i);

  operator = await acceptAndSignIn(browser, link!, 'ops@example.com', /\/operator\/clients$/);
  await expect(operator.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
  await expect(operator.getByText('No clients yet')).toBeVisible();
  // The link worked once.
  const again = await newPage(browser);
  await again.goto(new URL(link!).pathname);
  await expect(again.getByText('This invite link has expired or was already used')).toBeVisible();
  await again.context().close();
});

test('the operator creates a live and a test client, completes KYC and sets fees, and invites each one’s admin', async () => {
  test.setTimeout(120_000);
  for (const mode of ['live', 'test'] as const) {
    const client = clients[mode];
    await operator.goto('/operator/clients');
    const form = operator.getByRole('form', { name: 'New client' });
    await form.getByLabel('Name').fill(client.name);
    await form.getByLabel('Mode').selectOption(mode);
    await form.getByRole('button', { name: 'Create client' }).click();
    await operator.waitForURL(/\/operator\/clients\/[0-9a-f-]{36}$/);
    client.id = operator.url().split('/').pop()!;
    await expect(operator.getByRole('heading', { name: client.name, level: 1 })).toBeVisible();
    await expect(operator.getByText('key held')).toBeVisible();
    // The server settings a client's admins are told to ask about, named for the one person who can set them.
    await expect(operator.getByTestId('server-settings')).toContainText('SMTP_URL');
    await expect(operator.getByTestId('server-settings')).toContainText('ESCROW_WEBHOOKS_ALLOW_PRIVATE=1');
  }

  // The live client: KYC complete, a 1.5% fee capped at ₦2,000.
  await operator.goto(`/operator/clients/${clients.live.id}`);
  const settings = operator.getByRole('form', { name: 'Client settings' });
  await expect(operator.getByText('KYC pending')).toBeVisible();
  await settings.getByLabel('KYC complete').check();
  await settings.getByLabel('Fee (% of each milestone)').fill('1.5');
  await settings.getByLabel(/Fee cap per milestone/).fill('2000');
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expectToast(operator, 'Client updated successfully');
  await expect(operator.getByText('KYC complete').first()).toBeVisible();
  const listed = await apiAt<{ clients: Array<{ id: string; fee_basis_points: number; fee_cap: number | null; is_kyc_completed: boolean; mode: string }> }>(
    server.baseUrl,
    server.operatorKey,
    'GET',
    '/v1/operator/clients',
  );
  expect(listed.clients.find((c) => c.id === clients.live.id)).toMatchObject({ mode: 'live', is_kyc_completed: true, fee_basis_points: 150, fee_cap: 2000 });
  expect(listed.clients.find((c) => c.id === clients.test.id)).toMatchObject({ mode: 'test' });

  for (const mode of ['live', 'test'] as const) {
    const client = clients[mode];
    await operator.goto(`/operator/clients/${client.id}`);
    const invite = operator.getByRole('form', { name: 'Invite an admin' });
    await invite.getByLabel('Name').fill(`${mode} admin`);
    await invite.getByLabel('Email').fill(client.admin.email);
    await invite.getByRole('button', { name: 'Send invite' }).click();
    await expectToast(operator, `Invite emailed to ${client.admin.email}`);
    await expect(operator.getByTestId('staff-row').filter({ hasText: client.admin.email })).toContainText('invited');
  }
  await shot(operator, 'operator-client-detail');
  // The same email cannot be a second account anywhere.
  const invite = operator.getByRole('form', { name: 'Invite an admin' });
  await invite.getByLabel('Name').fill('Someone else');
  await invite.getByLabel('Email').fill(clients.live.admin.email);
  await invite.getByRole('button', { name: 'Send invite' }).click();
  await expect(invite.getByText('already has a dashboard account')).toBeVisible();
  await operator.goto('/operator/clients');
  await expect(operator.getByTestId('client-row')).toHaveCount(2);
  await shot(operator, 'operator-clients');

  // The operator's audit log holds each of these, under the operator's email.
  await operator.goto('/operator/audit');
  for (const action of ['sign_in', 'client_created', 'client_updated', 'client_admin_invited']) {
    await expect(operator.locator(`[data-testid="audit-row"][data-action="${action}"]`).first()).toContainText('ops@example.com');
  }
  await expect(operator.locator('[data-testid="audit-row"][data-action="client_created"]')).toHaveCount(2);
});

test('each admin signs in from the emailed link, creates a customer and rolls the key; the dashboard keeps working', async ({ browser }) => {
  test.setTimeout(180_000);
  for (const mode of ['live', 'test'] as const) {
    const client = clients[mode];
    // The invitation went to the client's outbox (no SMTP here: kept for its admins to read), link sealed.
    const link = await inviteLinkFromOperator(client.id, client.admin.email);
    const page = await acceptAndSignIn(browser, link, client.admin.email, /\/admin\/overview$/);
    client.admin.page = page;

    await page.goto('/admin/customers');
    const form = page.getByRole('form', { name: 'New customer' });
    const first = mode === 'live' ? 'Amaka' : 'Bello';
    await form.getByLabel('First name').fill(first);
    await form.getByLabel('Last name').fill('Customer');
    await form.getByLabel('Email').first().fill(`${first.toLowerCase()}.${unique()}@example.com`);
    await form.getByRole('button', { name: 'Create customer' }).click();
    await expectToast(page, /created/i);
    await expect(page.getByRole('link', { name: new RegExp(`${first} Customer`) }).first()).toBeVisible();
    client.customer = first;

    await page.goto('/admin/keys');
    await page.getByRole('button', { name: 'Roll secret key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Roll the key' }).click();
    const secret = await page.getByTestId('new-secret-key').inputValue();
    const key = /sk_(live|test)_[A-Za-z0-9_-]+/.exec(secret)?.[0];
    expect(key, secret).toMatch(new RegExp(`^sk_${mode}_`));
    client.key = key;
    // The new key is this client's: it lists the customer the admin just made, and only that one.
    const users = await apiAt<{ users: Array<{ first_name: string }> }>(server.baseUrl, key!, 'GET', '/v1/users?page=1&limit=10&sort=DESC');
    expect(users.users.map((u) => u.first_name)).toEqual([first]);
    // The dashboard acts with the new key from now on.
    await page.goto('/admin/customers');
    await expect(page.getByRole('link', { name: new RegExp(`${first} Customer`) }).first()).toBeVisible();
    // The client's own log: the operator's changes to it, then its admin's sign-in and key roll; nothing of the other client.
    await page.goto('/admin/audit');
    await expect(page.locator('[data-testid="audit-row"][data-action="key_rolled"]')).toContainText(client.admin.email);
    await expect(page.locator('[data-testid="audit-row"][data-action="client_admin_invited"]').first()).toContainText('ops@example.com');
    await expect(page.getByTestId('audit-row').filter({ hasText: clients[mode === 'live' ? 'test' : 'live'].admin.email })).toHaveCount(0);
  }
});

test('two clients’ admins each see and change only their own customers, transactions, webhooks and keys: pages and replayed actions', async () => {
  test.setTimeout(120_000);
  const live = clients.live.admin.page!;
  const other = clients.test.admin.page!;
  await live.goto('/admin/customers');
  await expect(live.getByText('Bello')).toHaveCount(0);
  await other.goto('/admin/customers');
  await expect(other.getByText('Amaka')).toHaveCount(0);

  // The live admin's customer, by URL, is not found for the test admin.
  await live.goto('/admin/customers');
  await live.getByRole('link', { name: /Amaka Customer/ }).first().click();
  await live.waitForURL(/\/admin\/customers\/[0-9a-f-]{36}$/);
  const amakaPath = new URL(live.url()).pathname;
  const amakaId = amakaPath.split('/').pop()!;
  const foreign = await other.goto(amakaPath);
  expect(foreign?.status()).toBe(404);

  // Public keys differ, each page naming its own mode.
  await live.goto('/admin/keys');
  await other.goto('/admin/keys');
  expect(await live.getByTestId('public-key').innerText()).toMatch(/^pk_live_/);
  expect(await other.getByTestId('public-key').innerText()).toMatch(/^pk_test_/);

  // A transaction of the live client is listed for its admin, and is not found for the other.
  const person = (first: string) =>
    apiAt<{ id: string }>(server.baseUrl, clients.live.key!, 'POST', '/v1/users', { first_name: first, last_name: 'Trader', email_address: `${first.toLowerCase()}.${unique()}@example.com` });
  const [buyer, seller] = [await person('Chika'), await person('Dayo')];
  const deal = await apiAt<{ id: string }>(server.baseUrl, clients.live.key!, 'POST', '/v1/transactions', {
    title: 'Live market generator order',
    description: 'One generator',
    buyer_id: buyer.id,
    seller_id: seller.id,
    milestones: [{ title: 'Generator delivered', description: 'One unit', amount: 150_000, due_date: new Date(Date.now() + 14 * 86_400_000).toISOString() }],
  });
  await live.goto('/admin/transactions');
  await expect(live.getByText('Live market generator order').first()).toBeVisible();
  await other.goto('/admin/transactions');
  await expect(other.getByText('Live market generator order')).toHaveCount(0);
  expect((await other.goto(`/transactions/${deal.id}`))?.status()).toBe(404);
  expect((await other.request.get(`/data/transactions/${deal.id}`)).status()).toBe(404);

  // A webhook endpoint made by the live admin is not on the test admin's page.
  await live.goto('/admin/webhooks');
  const hook = live.getByRole('form', { name: 'Add a webhook endpoint' });
  await hook.getByLabel('URL').fill('https://hooks.example.com/live-market');
  await hook.getByRole('button', { name: 'Add endpoint' }).click();
  await expectToast(live, /created/i);
  await other.goto('/admin/webhooks');
  await expect(other.getByText('hooks.example.com/live-market')).toHaveCount(0);

  // A server action captured from the live admin's page (invite Amaka to the dashboard), replayed as the
  // test admin: it acts with the test client's key, where Amaka does not exist.
  let captured: { url: string; headers: Record<string, string>; body: string } | undefined;
  await live.route(
    (url) => url.pathname.startsWith('/admin/customers'),
    async (route) => {
      const request: Request = route.request();
      if (isServerAction(request, amakaId)) {
        captured = { url: request.url(), headers: request.headers(), body: request.postData() ?? '' };
        return route.abort();
      }
      return route.continue();
    },
  );
  await live.goto(amakaPath);
  await live.getByRole('button', { name: /Invite to the dashboard|Make a new invite link/ }).first().click();
  await expect.poll(() => captured).toBeDefined();
  await live.unroute(() => true);
  const replay = await other.request.post(captured!.url, {
    headers: { 'next-action': captured!.headers['next-action']!, 'content-type': captured!.headers['content-type'] ?? 'text/plain;charset=UTF-8', accept: 'text/x-component' },
    data: captured!.body,
  });
  const answer = await replay.text();
  expect(answer).toMatch(/not found/i);
  expect(answer).not.toContain('/invite/');
  // Replayed as the live admin it works: the replay itself was sound.
  const own = await live.request.post(captured!.url, {
    headers: { 'next-action': captured!.headers['next-action']!, 'content-type': captured!.headers['content-type'] ?? 'text/plain;charset=UTF-8', accept: 'text/x-component' },
    data: captured!.body,
  });
  expect(await own.text()).toContain('/invite/');
});

/** The operator invites again from the console (the first link went to the admin's mailbox): the new one-time link shown once. */
async function inviteLinkFromOperator(clientId: string, email: string): Promise<string> {
  await operator.goto(`/operator/clients/${clientId}`);
  const invite = operator.getByRole('form', { name: 'Invite an admin' });
  await invite.getByLabel('Name').fill('Admin');
  await invite.getByLabel('Email').fill(email);
  await invite.getByRole('button', { name: 'Send invite' }).click();
  await expectToast(operator, `Invite emailed to ${email}`);
  const shown = operator.getByTestId('invite-link');
  await expect(shown).toBeVisible();
  const text = await shown.inputValue();
  const link = /(https?:\/\/\S+\/invite\/[A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!link) throw new Error(`no invite link in: ${text}`);
  return link;
}
