import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { csvRows } from '../support/csv-rows';
import { acceptInviteAndSignIn } from './staging';
import { api, DEMO, demoKey, expect, horizontalOverflow, seriousAxeViolations, shot, signedInPage, test, unique } from './support';
import { reachFor } from './pickers';

/**
 * The wallet's money in and where it went (docs/decisions.md §16, §18) through the browser: a customer adds money by
 * card on the sandbox's payment page and comes back to the new balance (a declined payment adds nothing), reads the
 * month's statement and downloads its CSV, whose figures are the page's, and sees which credits each payout paid out;
 * the admin sees the same statement, the payout's sources and the customer's card payments. On the shared server with
 * customers of this run's own; each new page and section at 390 px, without horizontal overflow or a serious axe finding.
 */
test.describe.configure({ mode: 'serial' });

const PHONE = { width: 390, height: 844 };
const run = unique();
const password = 'statement-customer-pass-1';
const key = demoKey;

let customerId = '';
let buyerId = '';
let transactionId = '';
let customer: Page;
let admin: Page;

const naira = (n: number) => `₦${n.toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
/** A figure as the page shows it ("₦2,500.00", "−₦4,000.00") back to a number. */
const amountOf = (text: string) => (text.trim().startsWith('−') || text.trim().startsWith('-') ? -1 : 1) * Number(text.replace(/[^0-9.]/g, ''));
const balance = async () => (await api<{ balance: number }>(key(), 'GET', `/v1/wallets/${customerId}`)).balance;
/** Controlled fields set before the form's code is live are drawn again empty: wait until it is. */
const live = (form: Locator) => expect(form).toHaveAttribute('data-ready', '1', { timeout: 30_000 });

async function expectFitsAPhone(page: Page, name: string): Promise<void> {
  const wide = page.viewportSize();
  await page.setViewportSize(PHONE);
  expect(await horizontalOverflow(page), `${name} at 390 px`).toBeLessThanOrEqual(0);
  expect(await seriousAxeViolations(page), name).toEqual([]);
  await shot(page, `statements-${name}-390`);
  if (wide) await page.setViewportSize(wide);
}

/** The statement's four figures and its lines' count, as the page shows them. */
async function pageFigures(page: Page) {
  const figure = async (id: string) => amountOf(await page.getByTestId(id).innerText());
  return {
    opening: await figure('statement-opening'),
    totalIn: await figure('statement-total-in'),
    totalOut: await figure('statement-total-out'),
    closing: await figure('statement-closing'),
    lines: await page.getByTestId('statement-line').count(),
  };
}

/** The same figures worked out from the downloaded CSV's lines. */
async function csvFigures(page: Page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('statement-csv').click()]);
  expect(download.suggestedFilename()).toMatch(/^statement-\d{4}-\d{2}\.csv$/);
  const [header, ...lines] = csvRows(await readFile((await download.path())!, 'utf8')).filter((r) => r.some((c) => c !== ''));
  expect(header?.slice(0, 4)).toEqual(['at', 'kind', 'amount', 'balance_after']);
  const amounts = lines.map((l) => Number(l[2]));
  const first = lines[0];
  const cents = (n: number) => Math.round(n * 100) / 100;
  return {
    opening: first ? cents(Number(first[3]) - Number(first[2])) : NaN,
    totalIn: cents(amounts.filter((a) => a > 0).reduce((s, a) => s + a, 0)),
    totalOut: cents(-amounts.filter((a) => a < 0).reduce((s, a) => s + a, 0)),
    closing: cents(Number(lines.at(-1)?.[3])),
    lines: lines.length,
  };
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  const email = `card.${run}@e2e.escrowdesk.ng`;
  customerId = (await api<{ id: string }>(key(), 'POST', '/v1/users', { first_name: 'Ngozi', last_name: 'Eze', email_address: email })).id;
  buyerId = (await api<{ id: string }>(key(), 'POST', '/v1/users', { first_name: 'Sola', last_name: 'Buyer', email_address: `buyer.${run}@e2e.escrowdesk.ng` })).id;
  admin = await signedInPage(browser, DEMO.admin);
  await admin.goto(`/admin/customers/${customerId}`);
  await admin.getByRole('button', { name: 'Invite to the dashboard' }).click();
  await expect(admin.getByTestId('invite-link')).toHaveValue(/\/invite\//);
  const link = await admin.getByTestId('invite-link').inputValue();
  customer = await acceptInviteAndSignIn(browser, { base: process.env.DASHBOARD_BASE_URL!, link, email, password, home: /\/transactions$/ });
});

test('a customer adds money by card on the payment page and comes back to the new balance; a declined payment adds nothing', async () => {
  await customer.goto('/wallet');
  await expect(customer.getByTestId('wallet-balance')).toHaveText(naira(0));
  const form = customer.getByRole('form', { name: 'Add money by card' });
  await live(form);
  await form.getByLabel('Amount (₦)').fill('2500');
  await form.getByRole('button', { name: 'Pay by card' }).click();
  await customer.waitForURL(/\/checkout\/CO_[A-Z0-9]{20}$/);
  await expect(customer.getByRole('heading', { level: 1 })).toHaveText('₦2,500.00');
  await customer.getByRole('button', { name: 'Pay' }).click();
  await customer.waitForURL(/\/wallet\?reference=CO_[A-Z0-9]{20}$/);
  const outcome = customer.getByTestId('top-up-outcome');
  await expect(outcome).toHaveAttribute('data-status', 'PAID');
  await expect(outcome).toContainText('₦2,500.00');
  await expect(customer.getByTestId('top-up-balance')).toHaveText(naira(2500));
  await expect(customer.getByTestId('wallet-balance')).toHaveText(naira(2500));
  expect(await balance()).toBe(2500);
  await expectFitsAPhone(customer, 'wallet-top-up-paid');

  await live(form);
  await form.getByLabel('Amount (₦)').fill('1000');
  await form.getByRole('button', { name: 'Pay by card' }).click();
  await customer.waitForURL(/\/checkout\/CO_/);
  await customer.getByRole('button', { name: 'Decline' }).click();
  await customer.waitForURL(/\/wallet\?reference=CO_/);
  await expect(outcome).toHaveAttribute('data-status', 'FAILED');
  await expect(outcome).toContainText('declined');
  await expect(customer.getByTestId('wallet-balance')).toHaveText(naira(2500));
  expect(await balance()).toBe(2500);
  await expectFitsAPhone(customer, 'wallet-top-up-declined');

  // The admin sees both card payments on the customer's page: one paid into the wallet, one declined.
  await admin.goto(`/admin/customers/${customerId}`);
  const rows = admin.getByTestId('customer-checkout');
  await expect(rows).toHaveCount(2);
  const paid = admin.locator('[data-testid="customer-checkout"][data-checkout-status="PAID"]');
  await expect(paid).toContainText('₦2,500.00');
  await expect(paid).toContainText('Wallet top-up');
  await expect(paid).toContainText('Yes: in the wallet');
  await expect(admin.locator('[data-testid="customer-checkout"][data-checkout-status="FAILED"]')).toContainText('₦1,000.00');
  await expectFitsAPhone(admin, 'admin-customer-checkouts');
});

test('the month’s statement lists each movement and its CSV download has the page’s figures', async () => {
  // A release to the customer (the buyer pays the fee) and a withdrawal of part of it, after the card payment.
  await api(key(), 'POST', '/v1/wallets/fund', { user_id: buyerId, amount: 20_000 });
  const tx = await api<{ id: string; milestones: Array<{ id: string }> }>(key(), 'POST', '/v1/transactions', {
    title: `Adire fabric ${run}`,
    description: 'Statements spec',
    buyer_id: buyerId,
    seller_id: customerId,
    commission_payer: 'BUYER_100',
    milestones: [{ title: 'Only milestone', description: 'Everything', amount: 5_000, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString() }],
  });
  transactionId = tx.id;
  const m = tx.milestones[0]!.id;
  await api(key(), 'POST', `/v1/milestones/${m}/fund`, { buyer_id: buyerId });
  await api(key(), 'POST', `/v1/milestones/${m}/deliver`, { seller_id: customerId, proofs_of_completion: ['https://example.com/waybill.pdf'] });
  await api(key(), 'POST', `/v1/milestones/${m}/approve`, { buyer_id: buyerId });
  const account = await api<{ id: string }>(key(), 'POST', '/v1/wallets/banks/disbursement', { user_id: customerId, bank_code: '058', account_number: '0016563228' });
  await api(key(), 'POST', '/v1/payouts', { user_id: customerId, amount: 4_000, bank_account_id: account.id });
  const statement = await api<{ opening_balance: number; total_in: number; total_out: number; closing_balance: number; lines: unknown[] }>(key(), 'GET', `/v1/wallets/${customerId}/statement`);
  expect(statement).toMatchObject({ opening_balance: 0, total_in: 7_500, total_out: 4_000, closing_balance: 3_500 });

  await customer.goto('/wallet');
  await customer.getByRole('link', { name: 'Monthly statement' }).click();
  await customer.waitForURL(/\/wallet\/statement$/);
  const lines = customer.getByTestId('statement-line');
  await expect(lines).toHaveCount(statement.lines.length);
  await expect(lines.nth(0)).toContainText('Card payment');
  await expect(lines.nth(0)).toContainText('+₦2,500.00');
  await expect(lines.filter({ hasText: 'Payment for a deal' })).toContainText('+₦5,000.00');
  await expect(lines.filter({ hasText: 'Withdrawal' })).toContainText('−₦4,000.00');
  await expect(lines.last()).toContainText(naira(3_500));
  const shown = await pageFigures(customer);
  expect(shown).toEqual({ opening: 0, totalIn: 7_500, totalOut: 4_000, closing: 3_500, lines: statement.lines.length });
  expect(await csvFigures(customer)).toEqual(shown);
  await expectFitsAPhone(customer, 'wallet-statement');

  // Another month answers with its own (empty) statement; the picker keeps the month asked for.
  await customer.goto('/wallet/statement?month=2020-01');
  await expect(customer.getByText('No movements this month')).toBeVisible();
  await expect(customer.getByRole('textbox', { name: 'Month' })).toHaveValue('2020-01');

  // The download is the viewer's own wallet only; the admin reads any customer's of its client.
  const others = await customer.request.get(`/data/wallet/statement?user_id=${buyerId}`);
  expect(others.status()).toBe(403);
  const signedOut = await customer.context().browser()!.newContext({ baseURL: process.env.DASHBOARD_BASE_URL });
  expect((await signedOut.request.get('/data/wallet/statement')).status()).toBe(401);
  await signedOut.close();

  await admin.goto(`/admin/customers/${customerId}`);
  await admin.getByRole('link', { name: 'Monthly statement' }).click();
  await admin.waitForURL(new RegExp(`/admin/customers/${customerId}/statement$`));
  expect(await pageFigures(admin)).toEqual(shown);
  expect(await csvFigures(admin)).toEqual(shown);
  await expectFitsAPhone(admin, 'admin-customer-statement');
});

test('a payout shows the credits it paid out, with their deal, to the customer and the admin', async () => {
  const expectSources = async (payout: Locator) => {
    const sources = payout.getByTestId('payout-source');
    await expect(sources).toHaveCount(2);
    await expect(sources.nth(0)).toHaveAttribute('data-kind', 'checkout');
    await expect(sources.nth(0).getByTestId('payout-source-amount')).toHaveText(naira(2_500));
    await expect(sources.nth(0).getByRole('link')).toHaveCount(0);
    await expect(sources.nth(1)).toHaveAttribute('data-kind', 'release');
    await expect(sources.nth(1).getByTestId('payout-source-amount')).toHaveText(naira(1_500));
    await expect(sources.nth(1).getByRole('link', { name: 'View the deal' })).toHaveAttribute('href', `/transactions/${transactionId}`);
  };
  await customer.goto('/wallet');
  const mine = customer.getByTestId('payout').first();
  await expect(mine.getByTestId('payout-amount')).toHaveText(naira(4_000));
  await expectSources(mine);
  await mine.scrollIntoViewIfNeeded();
  await expectFitsAPhone(customer, 'wallet-payout-sources');

  await admin.goto(`/admin/customers/${customerId}`);
  await expectSources(admin.getByTestId('payout').first());
  await admin.goto('/admin/payouts');
  await reachFor(admin.getByLabel('Customer'));
  await admin.getByLabel('Customer').selectOption(customerId);
  await expect(admin.getByTestId('payout')).toHaveCount(1);
  await expectSources(admin.getByTestId('payout').first());
  await expectFitsAPhone(admin, 'admin-payout-sources');
});
