import type { Browser, Locator, Page } from '@playwright/test';
import { nubanCheckDigit } from '../../lib/escrow/nuban';
import { startDemoServer, type DemoServer } from '../support/demo-server';
import { apiAt, DEMO, expect, expectToast, shot, test, unique } from './support';
import { reachFor } from './pickers';

/**
 * Issue #24 items 6 and 7 through the browser: a seller withdraws released money to a saved account (on
 * its way, then paid once the admin moves the sandbox clock past the minute), a payout the admin makes
 * fail or reverses puts the money back with the reason shown, saving an account whose bank name is not the
 * customer's asks for a confirmation with both names shown, and the auto_payout switch. On a server of
 * this spec's own: it moves the demo client's clock and turns auto_payout on, which would change every
 * other spec's releases; its payout runner is slowed to once an hour so only the test clock pays a payout.
 */
test.describe.configure({ mode: 'serial' });

let demo: DemoServer;
let base = '';
let key = '';
const api = <T = any>(method: 'GET' | 'POST' | 'PATCH', route: string, body?: unknown) => apiAt<T>(base, key, method, route, body);

const BANK = { code: '058', name: 'GTBank' };
const run = unique();
const password = 'payout-seller-pass-1';
type Account = { number: string; name: string };
/** The account whose bank name is the seller's, and two whose names are someone else's. */
let own: Account;
let other: Account;
let another: Account;
let seller: { id: string; first: string; last: string; email: string };
let buyerId = '';
let admin: Page;
let sellerPage: Page;

const naira = (n: number) => `₦${n.toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const titleCase = (word: string) => word.charAt(0) + word.slice(1).toLowerCase();
const balance = async () => (await api<{ balance: number }>('GET', `/v1/wallets/${seller.id}`)).balance;

/** A valid GTBank NUBAN for a serial, with the sandbox's name for it. */
async function account(serial: number): Promise<Account> {
  const body = String(serial).padStart(9, '0');
  const number = `${body}${nubanCheckDigit(BANK.code, body)}`;
  const { account_name } = await api<{ account_name: string }>('POST', '/v1/wallets/banks/validate', { account_number: number, bank_code: BANK.code });
  return { number, name: account_name };
}

async function pageAs(browser: Browser): Promise<Page> {
  return (await browser.newContext({ baseURL: base })).newPage();
}

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/(transactions|admin\/overview)$/);
}

/** `amount` released to the seller: a one-milestone deal funded, delivered and accepted (the buyer pays the fee). */
async function release(amount: number) {
  await api('POST', '/v1/wallets/fund', { user_id: buyerId, amount: amount * 2 });
  const tx = await api<{ milestones: Array<{ id: string }> }>('POST', '/v1/transactions', {
    title: `Printed fabric ${unique()}`,
    description: 'Payouts spec',
    buyer_id: buyerId,
    seller_id: seller.id,
    commission_payer: 'BUYER_100',
    milestones: [{ title: 'Only milestone', description: 'Everything', amount, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString() }],
  });
  const m = tx.milestones[0]!.id;
  await api('POST', `/v1/milestones/${m}/fund`, { buyer_id: buyerId });
  await api('POST', `/v1/milestones/${m}/deliver`, { seller_id: seller.id, proofs_of_completion: ['https://example.com/waybill.pdf'] });
  await api('POST', `/v1/milestones/${m}/approve`, { buyer_id: buyerId });
}

const payouts = (page: Page) => page.getByTestId('payout');

test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  demo = await startDemoServer({ ESCROW_PAYOUT_POLL_MS: '3600000' });
  base = demo.server.baseUrl;
  key = demo.demoSecretKey;

  own = await account(16_563_220);
  const accounts: Account[] = [];
  for (let serial = 20_000_001; accounts.length < 2; serial += 7) {
    const found = await account(serial);
    const [first, last] = own.name.split(' ');
    if (!found.name.includes(first!) && !found.name.includes(last!)) accounts.push(found);
  }
  [other, another] = accounts as [Account, Account];
  const [first, last] = own.name.split(' ').map(titleCase) as [string, string];
  seller = { id: '', first, last, email: `seller.${run}@e2e.escrowdesk.ng` };
  seller.id = (await api<{ id: string }>('POST', '/v1/users', { first_name: first, last_name: last, email_address: seller.email })).id;
  buyerId = (await api<{ id: string }>('POST', '/v1/users', { first_name: 'Kemi', last_name: 'Buyer', email_address: `buyer.${run}@e2e.escrowdesk.ng` })).id;
  await release(60_000);

  admin = await pageAs(browser);
  await signIn(admin, DEMO.admin);
  await admin.goto(`/admin/customers/${seller.id}`);
  await admin.getByRole('button', { name: 'Invite to the dashboard' }).click();
  await expect(admin.getByTestId('invite-link')).toHaveValue(/\/invite\//);
  const link = new URL(await admin.getByTestId('invite-link').inputValue(), base).pathname;
  sellerPage = await pageAs(browser);
  await sellerPage.goto(link);
  await sellerPage.getByLabel('New password').fill(password);
  await sellerPage.getByLabel('Repeat the password').fill(password);
  await sellerPage.getByRole('button', { name: 'Set password' }).click();
  await sellerPage.waitForURL(/\/login\?invited=1/);
  await signIn(sellerPage, { email: seller.email, password });
});

/** Controlled fields set before the form's code is live are drawn again empty: wait until it is. */
const live = (form: Locator) => expect(form).toHaveAttribute('data-ready', '1', { timeout: 30_000 });

test.afterAll(async () => {
  await demo?.stop();
});

test('saving an account whose bank name is not the customer’s shows both names and waits for a confirmation; a matching one saves at once', async () => {
  await sellerPage.goto('/wallet');
  await expect(sellerPage.getByText('Save a bank account first')).toBeVisible();
  const form = sellerPage.getByRole('form', { name: 'Add a bank account' });
  await live(form);
  const save = form.getByRole('button', { name: 'Save bank account' });
  await form.getByLabel('Bank').selectOption(BANK.code);
  await form.getByLabel('Account number (10 digits)').fill(other.number);
  await expect(form.getByTestId('account-name')).toHaveText(other.name);
  await expect(form.getByTestId('customer-name')).toHaveText(`${seller.first} ${seller.last}`);
  await expect(form.getByText('The names differ.')).toBeVisible();
  await expect(save).toBeDisabled();
  await shot(sellerPage, 'wallet-name-mismatch');
  await form.getByRole('checkbox', { name: 'This is my account although the names differ' }).check();
  await save.click();
  await expectToast(sellerPage, /saved|created/i);
  const saved = sellerPage.getByTestId('saved-account');
  await expect(saved.filter({ hasText: other.number })).toContainText('Name differs');

  // A second account, whose bank name is the seller's: no question asked.
  await sellerPage.getByText('Add a bank account', { exact: true }).click();
  await form.getByLabel('Bank').selectOption(BANK.code);
  await form.getByLabel('Account number (10 digits)').fill(own.number);
  await expect(form.getByTestId('account-name')).toHaveText(own.name);
  await expect(form.getByTestId('name-mismatch')).toHaveCount(0);
  await save.click();
  await expectToast(sellerPage, /saved|created/i);
  await expect(saved.filter({ hasText: own.number })).toBeVisible();
  await expect(saved.filter({ hasText: own.number }).getByTestId('name-differs')).toHaveCount(0);

  // The admin's form asks the same, and the list marks the account; the admin may remove one.
  await admin.goto('/admin/bank-accounts');
  const adminForm = admin.getByRole('form', { name: 'Add a bank account' });
  await live(adminForm);
  await reachFor(adminForm.getByLabel('Customer'));
  await adminForm.getByLabel('Customer').selectOption(seller.id);
  await adminForm.getByLabel('Bank').selectOption(BANK.code);
  await adminForm.getByLabel('Account number (NUBAN)').fill(another.number);
  await expect(adminForm.getByTestId('account-name')).toHaveText(another.name);
  await expect(adminForm.getByTestId('customer-name')).toHaveText(`${seller.first} ${seller.last}`);
  await expect(adminForm.getByRole('button', { name: 'Save bank account' })).toBeDisabled();
  await adminForm.getByRole('checkbox', { name: `This is ${seller.first} ${seller.last}’s account although the names differ` }).check();
  await adminForm.getByRole('button', { name: 'Save bank account' }).click();
  await expectToast(admin, /saved|created/i);
  const row = admin.getByRole('row').filter({ hasText: another.number });
  await expect(row).toContainText('Name differs');
  await shot(admin, 'admin-bank-accounts-name-differs');
  await row.getByRole('button', { name: /^Remove/ }).click();
  await expect(admin.getByRole('dialog')).toContainText(another.number);
  await admin.getByRole('dialog').getByRole('button', { name: 'Remove account' }).click();
  await expectToast(admin, /removed/i);
  await expect(admin.getByRole('row').filter({ hasText: another.number })).toHaveCount(0);
});

test('the seller withdraws released money to a saved account: the account is named before sending, the payout is on its way, then paid once the admin moves the clock past its minute', async () => {
  const before = await balance();
  expect(before).toBe(60_000);
  await sellerPage.goto('/wallet');
  await expect(sellerPage.getByTestId('wallet-balance')).toHaveText(naira(before));
  const form = sellerPage.getByRole('form', { name: 'Withdraw' });
  await live(form);
  await form.getByLabel('Amount (₦)').fill('20000');
  await form.getByRole('radio', { name: new RegExp(own.number) }).check();
  await form.getByRole('button', { name: 'Withdraw' }).click();
  const dialog = sellerPage.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Withdraw ₦20,000.00?' })).toBeVisible();
  await expect(dialog.getByTestId('withdraw-account-name')).toHaveText(own.name);
  await expect(dialog).toContainText(BANK.name);
  await expect(dialog).toContainText(own.number);
  await shot(sellerPage, 'wallet-withdraw-confirm');
  await dialog.getByRole('button', { name: 'Withdraw ₦20,000.00' }).click();
  await expectToast(sellerPage, /payout/i);
  const first = payouts(sellerPage).first();
  await expect(first).toHaveAttribute('data-payout-status', 'PROCESSING');
  await expect(first.getByTestId('payout-amount')).toHaveText('₦20,000.00');
  await expect(first).toContainText(own.name);
  await expect(sellerPage.getByTestId('wallet-balance')).toHaveText(naira(before - 20_000));
  await shot(sellerPage, 'wallet-payout-processing');

  await admin.goto('/admin/sandbox');
  const clock = admin.getByRole('form', { name: 'Advance the test clock' });
  await clock.getByLabel('Advance by').fill('2');
  await clock.getByLabel('Unit').selectOption('minutes');
  await clock.getByRole('button', { name: 'Advance clock' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Advance' }).click();
  await expect(admin.getByTestId('test-clock-settled')).toContainText('paid 1 payout');

  // The seller's page, still open, looks again every few seconds while a payout is on its way.
  await expect(first).toHaveAttribute('data-payout-status', 'PAID');
  await expect(first).toContainText('Paid');
  await expect(sellerPage.getByTestId('wallet-balance')).toHaveText(naira(before - 20_000));
  await shot(sellerPage, 'wallet-payout-paid');

  await admin.goto('/admin/payouts');
  await reachFor(admin.getByLabel('Customer'));
  await admin.getByLabel('Customer').selectOption(seller.id);
  await admin.getByLabel('Status').selectOption('PAID');
  await expect(payouts(admin)).toHaveCount(1);
  await expect(payouts(admin).first()).toContainText(`${seller.first} ${seller.last}`);
  await admin.getByLabel('Status').selectOption('FAILED');
  await expect(admin.getByText('No payout matches these filters')).toBeVisible();
});

test('a payout the admin makes fail shows its reason on the seller’s wallet, with the money back; a paid one reversed too', async () => {
  const before = await balance();
  await api('POST', '/v1/payouts', { user_id: seller.id, amount: 15_000 });
  expect(await balance()).toBe(before - 15_000);

  await admin.goto('/admin/payouts');
  await reachFor(admin.getByLabel('Customer'));
  await admin.getByLabel('Customer').selectOption(seller.id);
  await admin.getByLabel('Status').selectOption('PROCESSING');
  await expect(payouts(admin)).toHaveCount(1);
  await payouts(admin).first().getByRole('button', { name: /^Make it fail/ }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByLabel('Reason (optional)').fill('The account is dormant');
  await dialog.getByRole('button', { name: 'Fail payout' }).click();
  await expectToast(admin, /failed/i);
  await admin.getByLabel('Status').selectOption('FAILED');
  await expect(payouts(admin).first()).toContainText('The account is dormant');
  await shot(admin, 'admin-payouts-failed');

  await sellerPage.goto('/wallet');
  const failed = sellerPage.locator('[data-testid="payout"][data-payout-status="FAILED"]');
  await expect(failed.getByTestId('payout-failure-reason')).toHaveText('Failed: The account is dormant');
  await expect(failed.getByTestId('payout-amount')).toHaveText('₦15,000.00');
  await expect(sellerPage.getByTestId('wallet-balance')).toHaveText(naira(before));
  await shot(sellerPage, 'wallet-payout-failed');

  // The paid ₦20,000 comes back from the bank.
  await admin.getByLabel('Status').selectOption('PAID');
  await payouts(admin).first().getByRole('button', { name: /^Reverse/ }).click();
  await admin.getByRole('dialog').getByLabel('Reason (optional)').fill('The account was closed');
  await admin.getByRole('dialog').getByRole('button', { name: 'Reverse payout' }).click();
  await expectToast(admin, /reversed/i);
  await sellerPage.reload();
  const reversed = sellerPage.locator('[data-testid="payout"][data-payout-status="REVERSED"]');
  await expect(reversed.getByTestId('payout-failure-reason')).toHaveText('Returned: The account was closed');
  await expect(sellerPage.getByTestId('wallet-balance')).toHaveText(naira(before + 20_000));

  // The seller's bell says so too, each line leading to the wallet.
  await sellerPage.getByTestId('notification-bell').click();
  const lines = sellerPage.getByTestId('notification');
  await expect(lines.filter({ hasText: /Payout of ₦15,000\.00 to .+ failed: The account is dormant\. The money is back in the wallet/ }).first()).toBeVisible();
  await expect(lines.filter({ hasText: /Payout of ₦20,000\.00 to .+ was returned by the bank/ }).first()).toBeVisible();
  await expect(lines.filter({ hasText: /Payout of ₦20,000\.00 to .+ paid/ }).first()).toBeVisible();
  await expect(lines.filter({ hasText: /failed: The account is dormant/ }).first().getByRole('link')).toHaveAttribute('href', '/wallet');
  await sellerPage.keyboard.press('Escape');
});

test('the auto_payout switch: on, a release to the seller starts a payout by itself; off again', async () => {
  await admin.goto('/admin/payouts/automatic');
  const toggle = admin.getByRole('switch', { name: 'Pay out releases automatically' });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Turn on' }).click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  expect((await api<{ auto_payout: boolean }>('GET', '/v1/settings')).auto_payout).toBe(true);
  await shot(admin, 'admin-payouts');

  const before = await balance();
  await release(15_000);
  expect(await balance()).toBe(before);
  await sellerPage.goto('/wallet');
  const newest = payouts(sellerPage).first();
  await expect(newest).toHaveAttribute('data-payout-status', 'PROCESSING');
  await expect(newest.getByTestId('payout-amount')).toHaveText('₦15,000.00');

  await toggle.click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Turn off' }).click();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  expect((await api<{ auto_payout: boolean }>('GET', '/v1/settings')).auto_payout).toBe(false);
});

// The money-out pages at 390 px (overflow, axe, screenshots): every-page.spec.ts; the wallet's payouts in view on a phone: phones.spec.ts.
