import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { startDemoServer, type DemoServer } from '../support/demo-server';
import { onDatabase } from '../support/test-server';
import { apiAt, DEMO, expect, horizontalOverflow, seriousAxeViolations, shot, test, unique } from './support';

/**
 * The audit log (docs/decisions.md §14, issue #26 item 5): the admin's staff actions done through the dashboard
 * (its sign-in, a key roll, the auto_payout setting, a customer created and invited, a milestone funded
 * for the buyer, the test clock moved) are on /admin/audit with the admin's email and the address they
 * came from, in words, filterable by action; so are the demo dispute team's sign-in and verdict; the new secret key and the invite link are nowhere in it; a customer's sign-in is
 * not in it and a customer cannot open it; another client's rows never show. On a server of this spec's
 * own: it rolls the demo key and turns auto_payout on, which would change other specs' runs.
 */
test.describe.configure({ mode: 'serial' });

let demo: DemoServer;
let base = '';
let key = '';
let admin: Page;
let newKey = '';
let invitePath = '';
let milestoneId = '';
const run = unique();
const customer = { first: 'Kemi', last: `Audit${run}`, email: `kemi.${run}@e2e.escrowdesk.ng` };
/** A row of another client's, written straight into the database: its email and address must never show. */
const foreign = { email: `admin.${run}@other.example`, address: '192.0.2.50' };
const LOOPBACK = /^(127\.0\.0\.1|::1)$/;

const api = <T = any>(method: 'GET' | 'POST' | 'PATCH', route: string, body?: unknown) => apiAt<T>(base, key, method, route, body);

async function pageAs(browser: Browser): Promise<Page> {
  return (await browser.newContext({ baseURL: base })).newPage();
}

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/(transactions|admin\/overview|dispute-team)$/);
}

/** An admin's key roll of another client, as that client's admin would have it in the log. */
async function writeForeignRow(clientId: string): Promise<void> {
  const insert = `insert into audit_log (id, client_id, actor_account_id, actor_email, actor_role, action, target, detail, address)
    values (gen_random_uuid(), '${clientId}', gen_random_uuid(), '${foreign.email}', 'admin', 'key_rolled', 'foreign-key', '{}', '${foreign.address}')`;
  const count = `select count(*)::int as n from audit_log where actor_email = '${foreign.email}'`;
  if (demo.server.databaseUrl) {
    const written = await onDatabase(demo.server.databaseUrl, async (sql) => {
      await sql.unsafe(insert);
      return sql.unsafe<Array<{ n: number }>>(count);
    });
    expect(written[0]!.n).toBe(1);
    return;
  }
  // PGlite lets one process at a time open its directory: the server is stopped for the write.
  await demo.server.stop();
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(path.join(demo.server.dataDir!, 'pgdata'));
  try {
    await db.query(insert);
    expect((await db.query<{ n: number }>(count)).rows[0]!.n).toBe(1);
  } finally {
    await db.close();
  }
  base = (await demo.restart()).baseUrl;
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  demo = await startDemoServer();
  base = demo.server.baseUrl;
  key = demo.demoSecretKey;
  const other = await apiAt<{ id: string }>(base, demo.server.operatorKey, 'POST', '/v1/operator/clients', { name: `Other marketplace ${run}` });
  await writeForeignRow(other.id);
});

test.afterAll(async () => {
  await demo?.stop();
});

test('the admin’s staff actions through the dashboard are in the audit log: who, what in words, on what, when and from which address', async ({ browser }) => {
  test.setTimeout(180_000);
  const users = await api<{ users: Array<{ id: string }> }>('GET', '/v1/users?page=1&limit=1&sort=DESC&search=ada.obi');
  const tunde = await api<{ users: Array<{ id: string }> }>('GET', '/v1/users?page=1&limit=1&sort=DESC&search=tunde.balogun');
  const ada = users.users[0]!.id;
  await api('POST', '/v1/wallets/fund', { user_id: ada, amount: 30_000 });
  const tx = await api<{ id: string; milestones: Array<{ id: string }> }>('POST', '/v1/transactions', {
    title: `Audited deal ${run}`,
    description: 'Funded by the admin for the buyer',
    buyer_id: ada,
    seller_id: tunde.users[0]!.id,
    milestones: [{ title: 'Only milestone', description: 'Everything', amount: 20_000, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString() }],
  });
  milestoneId = tx.milestones[0]!.id;

  admin = await pageAs(browser);
  await signIn(admin, DEMO.admin);

  await admin.goto('/admin/keys');
  await admin.getByRole('button', { name: 'Roll secret key' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Roll the key' }).click();
  await expect(admin.getByTestId('new-secret-key')).toHaveValue(/^sk_test_/);
  newKey = await admin.getByTestId('new-secret-key').inputValue();
  key = newKey;

  await admin.goto('/admin/payouts/automatic');
  const toggle = admin.getByRole('switch', { name: 'Pay out releases automatically' });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Turn on' }).click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');

  await admin.goto('/admin/customers');
  const form = admin.getByRole('form', { name: 'New customer' });
  await form.getByLabel('First name').fill(customer.first);
  await form.getByLabel('Last name').fill(customer.last);
  await form.getByLabel('Email').fill(customer.email);
  await form.getByRole('button', { name: 'Create customer' }).click();
  await expect(admin.getByRole('status').filter({ hasText: `${customer.first} was created` })).toBeVisible();
  invitePath = new URL(await admin.getByTestId('invite-link').inputValue(), base).pathname;
  expect(invitePath).toMatch(/^\/invite\/.+/);

  await admin.goto(`/transactions/${tx.id}`);
  await admin.getByTestId('milestone-1').getByRole('button', { name: 'Fund milestone' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Fund milestone' }).click();
  await expect(admin.getByTestId('milestone-1').locator('[data-status]')).toHaveAttribute('data-status', 'IN_PROGRESS');

  await admin.getByRole('link', { name: 'Audit log' }).click();
  await expect(admin.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const rows = admin.getByTestId('audit-row');
  const expected: Array<[string, string, string | RegExp]> = [
    ['sign_in', 'Signed in', ''],
    ['key_rolled', 'Rolled the secret API key', `New key ends in ${newKey.slice(-4)}`],
    ['settings_changed', 'Changed a setting', 'Automatic payouts turned on'],
    ['customer_created', 'Created a customer', customer.email],
    ['invite_sent', 'Invited a customer to the dashboard', customer.email],
    ['fund_on_behalf', 'Funded a milestone for the buyer', `Audited deal ${run}`],
  ];
  for (const [action, words, summary] of expected) {
    const row = admin.locator(`[data-testid="audit-row"][data-action="${action}"]`).first();
    await expect(row, action).toBeVisible();
    await expect(row.getByTestId('audit-actor')).toHaveText(DEMO.admin.email);
    await expect(row.getByTestId('audit-action')).toHaveText(words);
    if (summary) await expect(row).toContainText(summary);
    await expect(row.getByTestId('audit-address')).toHaveText(LOOPBACK);
    await expect(row.getByRole('cell').nth(3)).toHaveText(/\d{4}, \d{1,2}:\d{2}/);
  }
  await expect(admin.locator(`[data-testid="audit-row"][data-action="fund_on_behalf"]`).getByTestId('audit-target')).toHaveText(milestoneId);
  // Newest first: funding was the last of them.
  await expect(rows.first()).toHaveAttribute('data-action', 'fund_on_behalf');
  // Neither the new key nor the invite's one-time link is anywhere on the page, its details included.
  const body = (await admin.locator('body').textContent()) ?? '';
  expect(body).not.toContain(newKey);
  expect(body).not.toContain(invitePath);
  expect(body).not.toContain(invitePath.split('/').pop()!);
  // Another client's row is in the database but never on this client's page.
  expect(body).not.toContain(foreign.email);
  expect(body).not.toContain(foreign.address);
  await shot(admin, 'admin-audit-log');
  expect(await horizontalOverflow(admin)).toBe(0);
  expect(await seriousAxeViolations(admin)).toEqual([]);
});

test('filtering by action, person and day narrows the list; the filters are the URL’s query', async () => {
  await admin.goto('/admin/audit');
  const rows = admin.getByTestId('audit-row');
  const all = await rows.count();
  expect(all).toBeGreaterThanOrEqual(6);

  const filter = admin.getByRole('search', { name: 'Filter the audit log' });
  await filter.getByLabel('Action').selectOption({ label: 'Rolled the secret API key' });
  await filter.getByRole('button', { name: 'Filter' }).click();
  await admin.waitForURL(/action=key_rolled/);
  // Only this client's one roll: the other client's roll, also key_rolled, is not here.
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-action', 'key_rolled');
  await expect(admin.getByText('1 action', { exact: true })).toBeVisible();
  await expect(filter.getByLabel('Action')).toHaveValue('key_rolled');

  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos' }).format(new Date());
  await admin.goto(`/admin/audit?action=settings_changed&actor=ADMIN%40demo&from=${today}&to=${today}`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Automatic payouts turned on');
  await admin.goto('/admin/audit?from=2001-01-01&to=2001-01-31');
  await expect(admin.getByText('Nothing matches these filters')).toBeVisible();
  await admin.goto(`/admin/audit?actor=${encodeURIComponent(foreign.email)}`);
  await expect(admin.getByText('Nothing matches these filters')).toBeVisible();

  await admin.getByRole('link', { name: 'Clear' }).click();
  await admin.waitForURL(/\/admin\/audit$/);
  await expect(rows).toHaveCount(all);
  await expect(admin.getByRole('search', { name: 'Filter the audit log' }).getByLabel('Person’s email')).toHaveValue('');
});

test('a verdict is in the disputed client’s log under the dispute-team member who gave it, as are its sign-in and the admin’s clock move', async ({ browser }) => {
  test.setTimeout(180_000);
  const [ada, tunde] = await Promise.all(['ada.obi', 'tunde.balogun'].map(async (search) => (await api<{ users: Array<{ id: string }> }>('GET', `/v1/users?page=1&limit=1&sort=DESC&search=${search}`)).users[0]!.id));
  await api('POST', '/v1/wallets/fund', { user_id: ada, amount: 20_000 });
  const tx = await api<{ milestones: Array<{ id: string }> }>('POST', '/v1/transactions', {
    title: `Disputed deal ${run}`,
    description: 'Decided by the dispute team',
    buyer_id: ada,
    seller_id: tunde,
    milestones: [{ title: 'Only milestone', description: 'Everything', amount: 10_000, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString() }],
  });
  const m = tx.milestones[0]!.id;
  const proof = 'https://example.com/waybill.pdf';
  await api('POST', `/v1/milestones/${m}/fund`, { buyer_id: ada });
  await api('POST', `/v1/milestones/${m}/deliver`, { seller_id: tunde, proofs_of_completion: [proof] });
  await api('POST', `/v1/milestones/${m}/reject`, { buyer_id: ada, rejection_reason: 'Broken', proofs_of_return: [proof] });
  await api('PATCH', `/v1/milestones/${m}/reject/disapprove`, { seller_id: tunde });
  const dispute = await api<{ id: string; dispute_code: string }>('POST', '/v1/dispute/create', { description: 'Return refused', buyer_id: ada, seller_id: tunde, milestone_id: m });
  await api('PATCH', `/v1/dispute/${dispute.id}/escalate`, { buyer_id: ada });
  await api('POST', `/v1/dispute/${dispute.id}/evidence`, { buyer_id: ada, text: 'It arrived broken' });
  await api('POST', `/v1/dispute/${dispute.id}/evidence`, { seller_id: tunde, text: 'It left intact' });

  // The evidence window (3 business days) closes on this server's own clock.
  await admin.goto('/admin/sandbox');
  const clock = admin.getByRole('form', { name: 'Advance the test clock' });
  await clock.getByLabel('Advance by').fill('7');
  await clock.getByLabel('Unit').selectOption('days');
  await clock.getByRole('button', { name: 'Advance clock' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Advance' }).click();
  await expect(admin.getByTestId('test-clock-settled')).toBeVisible();

  const team = await pageAs(browser);
  await signIn(team, DEMO.disputes);
  await team.goto(`/dispute-team/${dispute.id}`);
  const verdict = team.getByRole('form', { name: 'Verdict' });
  await verdict.getByLabel("Seller's share (₦)").fill('4000');
  await verdict.getByLabel('Reason').fill('Both sides share the loss.');
  await verdict.getByRole('button', { name: 'Give verdict' }).click();
  await team.getByRole('dialog').getByRole('button', { name: 'Confirm verdict' }).click();
  await expect(team.getByTestId('dispute-outcome')).toContainText('Decided by the dispute team');

  await admin.goto('/admin/audit?action=verdict');
  const rows = admin.getByTestId('audit-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.getByTestId('audit-actor')).toHaveText(DEMO.disputes.email);
  await expect(rows).toContainText('Dispute team');
  await expect(rows).toContainText(`${dispute.dispute_code}: the seller receives ₦4,000.00`);
  await expect(rows.getByTestId('audit-target').getByRole('link')).toHaveAttribute('href', `/disputes/${dispute.id}`);
  await expect(rows.getByTestId('audit-address')).toHaveText(LOOPBACK);
  await admin.goto(`/admin/audit?action=sign_in&actor=${encodeURIComponent(DEMO.disputes.email)}`);
  await expect(rows).toHaveCount(1);
  await admin.goto('/admin/audit?action=clock_advanced');
  await expect(rows).toHaveCount(1);
  await expect(rows.getByTestId('audit-actor')).toHaveText(DEMO.admin.email);
  await expect(rows).toContainText('by 7 days');
});

test('a customer’s sign-in is not audited, and a customer can neither open the audit log nor see its rows', async ({ browser }) => {
  const ada = await pageAs(browser);
  await signIn(ada, DEMO.buyer);
  await ada.goto('/admin/audit');
  await expect(ada).toHaveURL(/\/transactions$/);
  await expect(ada.getByTestId('audit-row')).toHaveCount(0);
  await expect(ada.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
  const response = await ada.request.get('/admin/audit?action=sign_in');
  expect(new URL(response.url()).pathname).toBe('/transactions');
  expect(await response.text()).not.toContain(DEMO.admin.email);

  await admin.goto(`/admin/audit?actor=${encodeURIComponent(DEMO.buyer.email)}`);
  await expect(admin.getByText('Nothing matches these filters')).toBeVisible();
  // Ada has just signed in: every sign-in on the list is still a staff member's.
  await admin.goto('/admin/audit?action=sign_in');
  await expect(admin.getByTestId('audit-row').first()).toBeVisible();
  expect(new Set(await admin.getByTestId('audit-actor').allTextContents())).toEqual(new Set([DEMO.admin.email, DEMO.disputes.email]));
});
