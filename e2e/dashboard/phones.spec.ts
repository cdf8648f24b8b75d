import type { Browser, Locator, Page } from '@playwright/test';
import { api, DEMO, demoKey, demoUserId, expect, horizontalOverflow, seriousAxeViolations, shot, signIn, test, unique } from './support';

/**
 * Issue #27 (phones): at 390 px (and 360 px for the header) every list page fits the window: lists are
 * stacked cards with the amount and status of a record in view, nothing scrolls sideways, and the header
 * is one row with a Menu button that opens the links, the person and "Sign out".
 */

const PHONE = { width: 390, height: 844 };

async function phonePage(browser: Browser, who: { email: string; password: string }, viewport = PHONE, baseURL = process.env.DASHBOARD_BASE_URL): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  await signIn(page, who.email, who.password);
  return page;
}

/** Visible and wholly inside the window's width: not behind a sideways scroll. */
async function expectInView(page: Page, locator: Locator, what: string): Promise<void> {
  await expect(locator, what).toBeVisible();
  const box = await locator.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, what).not.toBeNull();
  expect(box!.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what}: right edge`).toBeLessThanOrEqual(width);
}

/** The page at rest fits the window, then its picture. */
async function fitsAndShot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  expect(await horizontalOverflow(page), `${name}: sideways overflow`).toBe(0);
  await shot(page, name);
}

/** A table's first record (its header row is hidden on a phone, but is skipped anyway). */
const firstRecord = (page: Page, table: string) => page.getByRole('table', { name: table }).getByRole('row').filter({ has: page.getByRole('cell') }).first();

test.describe.configure({ mode: 'serial' });

let webhookId = '';
let transactionId = '';
let title = '';

test.beforeAll(async () => {
  // Every list has at least one record, whatever else runs beside this spec.
  const [ada, tunde] = await Promise.all([demoUserId('ada.obi'), demoUserId('tunde.balogun')]);
  title = `Phone ${unique()} a fairly long title for a deal of two generators and their installation`;
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: ada, amount: 30_000 });
  const tx = await api<{ id: string; milestones: Array<{ id: string }> }>(demoKey(), 'POST', '/v1/transactions', {
    title,
    description: 'Browser suite: phones',
    buyer_id: ada,
    seller_id: tunde,
    milestones: [
      { title: 'Delivery', description: 'The generators', amount: 20_000, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString() },
      { title: 'Installation', description: 'Wired in', amount: 10_000, due_date: new Date(Date.now() + 28 * 86_400_000).toISOString() },
    ],
  });
  transactionId = tx.id;
  await api(demoKey(), 'POST', `/v1/milestones/${tx.milestones[0]!.id}/fund`, { buyer_id: ada });
  // A withdrawal of Tunde's, to his saved account.
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: tunde, amount: 5_000 });
  await api(demoKey(), 'POST', '/v1/payouts', { user_id: tunde, amount: 1_234 });
  // An endpoint nobody listens on (a long URL), with one delivery that fails.
  const webhook = await api<{ id: string }>(demoKey(), 'POST', '/v1/webhooks', {
    url: `http://127.0.0.1:9/hooks/phones/${unique()}/a-rather-long-path-that-does-not-break-anywhere-by-itself`,
    description: 'Browser suite: phones',
  });
  webhookId = webhook.id;
  await api(demoKey(), 'POST', `/v1/webhooks/${webhookId}/test`);
});

test.afterAll(async () => {
  if (webhookId) await fetch(`${process.env.DASHBOARD_BASE_URL}/v1/webhooks/${webhookId}`, { method: 'DELETE', headers: { authorization: demoKey() } });
});

test('at 360 px the header is one row: a Menu button opens the links, the person and Sign out; Escape and a link close it', async ({ browser }) => {
  const page = await phonePage(browser, DEMO.admin, { width: 360, height: 780 });
  const header = page.getByRole('banner');
  const menu = header.getByRole('button', { name: 'Menu' });
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(menu).toBeVisible();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator(`#${await menu.getAttribute('aria-controls')}`)).toBeHidden();
  await expect(nav.getByRole('link', { name: 'Customers' })).toBeHidden();
  await expect(header.getByRole('button', { name: 'Sign out' })).toBeHidden();
  expect((await header.boundingBox())!.height).toBeLessThan(80);
  await expectInView(page, menu, 'the Menu button');
  await expectInView(page, header.getByTestId('notification-bell'), 'the bell');
  expect(await horizontalOverflow(page)).toBe(0);
  await shot(page, 'phone-header-closed');

  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByRole('link', { name: 'Customers' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Audit log' })).toBeVisible();
  await expect(header.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(header).toContainText('Admin');
  await expect(page.getByRole('navigation')).toHaveCount(1);
  expect(await horizontalOverflow(page)).toBe(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await shot(page, 'phone-header-open');

  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link', { name: 'Customers' })).toBeHidden();
  await expect(menu).toBeFocused();

  await menu.click();
  await nav.getByRole('link', { name: 'Customers' }).click();
  await page.waitForURL(/\/admin\/customers$/);
  await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link', { name: 'Customers' })).toBeHidden();
  await page.context().close();
});

test('every admin list fits 390 px, with the first record’s amount and status in view', async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await phonePage(browser, DEMO.admin);
  const ada = await demoUserId('ada.obi');

  await page.goto('/admin/transactions');
  let row = firstRecord(page, 'Transactions');
  await expectInView(page, row.getByRole('link').first(), 'a transaction’s title');
  await expectInView(page, row.getByRole('cell').nth(2).locator('[data-status]'), 'a transaction’s status');
  await expectInView(page, row.getByRole('cell').nth(3), 'a transaction’s amount');
  await expect(row.getByRole('cell').nth(3)).toContainText('₦');
  await fitsAndShot(page, 'phone-admin-transactions');
  expect(await seriousAxeViolations(page)).toEqual([]);

  await page.goto('/admin/customers');
  row = firstRecord(page, 'Customers');
  await expectInView(page, row.getByRole('cell').nth(1), 'a customer’s email');
  await expectInView(page, row.getByRole('cell').nth(2), 'a customer’s dashboard access');
  await fitsAndShot(page, 'phone-admin-customers');

  await page.goto(`/admin/customers/${ada}`);
  row = page.getByTestId('wallet-entry').first();
  await expectInView(page, row.getByRole('cell').nth(1), 'a wallet movement’s kind');
  await expectInView(page, row.getByRole('cell').nth(3), 'a wallet movement’s amount');
  await expect(row.getByRole('cell').nth(3)).toContainText('₦');
  await fitsAndShot(page, 'phone-admin-customer-wallet');

  await page.goto('/admin/bank-accounts');
  row = firstRecord(page, 'Saved bank accounts');
  await expectInView(page, row.getByRole('cell').nth(3), 'an account number');
  await expectInView(page, row.getByRole('button', { name: /^Remove/ }), 'the Remove button');
  await fitsAndShot(page, 'phone-admin-bank-accounts');

  await page.goto('/admin/payouts');
  const payout = page.getByTestId('payout').first();
  await expectInView(page, payout.getByTestId('payout-amount'), 'a payout’s amount');
  await expectInView(page, payout.locator('[data-status]'), 'a payout’s status');
  await fitsAndShot(page, 'phone-admin-payouts');

  await page.goto('/admin/webhooks');
  await page.locator('[data-testid="webhook-row"]').filter({ hasText: 'a-rather-long-path' }).getByRole('button', { name: 'Deliveries' }).click();
  row = page.getByTestId('delivery-row').first();
  await expectInView(page, row.getByRole('cell').nth(1), 'a delivery’s status');
  await expectInView(page, row.getByTestId('delivery-attempts'), 'a delivery’s attempts');
  await expectInView(page, row.getByRole('button', { name: 'Resend' }), 'the Resend button');
  await fitsAndShot(page, 'phone-admin-webhooks');

  await page.goto('/admin/keys');
  await expectInView(page, page.getByRole('list', { name: 'Secret keys' }).getByRole('listitem').first(), 'a secret key');
  await fitsAndShot(page, 'phone-admin-keys');

  await page.goto('/admin/team');
  await expectInView(page, page.getByTestId('staff-row').first(), 'a team member');
  await fitsAndShot(page, 'phone-admin-team');

  await page.goto('/admin/outbox');
  const email = page.getByTestId('email-row').first();
  await expectInView(page, email, 'an email');
  await expectInView(page, email.getByText(/^(pending|sending|sent|failed|unknown|kept)$/).first(), 'an email’s status');
  await fitsAndShot(page, 'phone-admin-outbox');

  await page.goto('/admin/audit');
  row = page.getByTestId('audit-row').first();
  await expectInView(page, row.getByTestId('audit-actor'), 'who acted');
  await expectInView(page, row.getByTestId('audit-action'), 'what they did');
  await fitsAndShot(page, 'phone-admin-audit');

  await page.goto('/admin/sandbox');
  await expectInView(page, page.getByTestId('test-clock-now'), 'the test clock');
  await fitsAndShot(page, 'phone-admin-sandbox');

  await page.goto(`/transactions/${transactionId}`);
  await expectInView(page, page.locator('[data-status]').first(), 'the transaction’s status');
  await fitsAndShot(page, 'phone-admin-transaction');
  await page.context().close();
});

test('the buyer’s and the seller’s transactions, a transaction and the wallet fit 390 px', async ({ browser }) => {
  test.setTimeout(120_000);
  const buyer = await phonePage(browser, DEMO.buyer);
  await buyer.goto('/transactions');
  const item = buyer.getByRole('listitem').filter({ hasText: title });
  await expectInView(buyer, item.locator('[data-status]'), 'the transaction’s status');
  await expectInView(buyer, item.getByText('₦30,000.00'), 'the transaction’s amount');
  await fitsAndShot(buyer, 'phone-buyer-transactions');

  await item.getByRole('link').click();
  await buyer.waitForURL(new RegExp(`/transactions/${transactionId}$`));
  await expectInView(buyer, buyer.locator('[data-status]').first(), 'the transaction’s status');
  await expectInView(buyer, buyer.getByText('₦30,000.00').first(), 'the transaction’s total');
  await fitsAndShot(buyer, 'phone-buyer-transaction');

  // A dispute's page: the demo's palm oil deal is in dispute from the start. Other specs add deals to the demo buyer's
  // list, so it may be past the first page: its own page links to the dispute.
  const palmOil = await api<{ transactions: Array<{ id: string }> }>(demoKey(), 'GET', `/v1/transactions?page=1&limit=1&search=${encodeURIComponent('Palm oil consignment')}`);
  await buyer.goto(`/transactions/${palmOil.transactions[0]!.id}`);
  await buyer.getByRole('link', { name: 'Open the dispute' }).click();
  await buyer.waitForURL(/\/disputes\/[^/]+$/);
  await expectInView(buyer, buyer.locator('[data-status]').first(), 'the dispute’s status');
  await fitsAndShot(buyer, 'phone-buyer-dispute');

  await buyer.goto('/wallet');
  const entry = buyer.getByTestId('wallet-entry').first();
  await expectInView(buyer, buyer.getByTestId('wallet-balance'), 'the balance');
  await expectInView(buyer, entry.getByRole('cell').nth(3), 'a movement’s amount');
  await fitsAndShot(buyer, 'phone-buyer-wallet');
  await buyer.context().close();

  const seller = await phonePage(browser, DEMO.seller);
  await seller.goto('/transactions');
  await expectInView(seller, seller.getByRole('listitem').filter({ hasText: title }).locator('[data-status]'), 'the transaction’s status');
  await fitsAndShot(seller, 'phone-seller-transactions');
  await seller.goto('/wallet');
  const payout = seller.getByTestId('payout').first();
  await expectInView(seller, payout.getByTestId('payout-amount'), 'a withdrawal’s amount');
  await expectInView(seller, payout.locator('[data-status]'), 'a withdrawal’s status');
  await fitsAndShot(seller, 'phone-seller-wallet');
  await seller.context().close();
});

// The dispute team's queue and a case at 390 px: every-page.spec.ts (overflow, axe and screenshots of every page); /docs:
// api-reference.spec.ts.
