import type { Locator, Page, Route } from '@playwright/test';
import { api, DEMO, demoKey, demoUserId, expect, expectToast, pngImage, signedInPage, test, unique } from './support';

/**
 * Issue #27 (4), uploads and forms: a proof still uploading holds "Mark as delivered" (it used to be sent
 * without it, and the API answered that no proof was given), a failed upload stays on its file with a way
 * to try again, and what a form is refused for is said in the form's words: no API field names, a due date
 * in the past refused before the API is asked, the same person as buyer and seller said plainly.
 */

/** A snake_case name (`proofs_of_completion`, `buyer_id`): never in what a person is shown. */
const FIELD_NAME = /[a-z]+_[a-z_]+/;

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);
const lagosDay = (d: Date) => d.toLocaleDateString('en-CA', { timeZone: 'Africa/Lagos' });

/** Every error the page shows now: the error toasts and the messages under fields. */
async function shownErrors(page: Page): Promise<string[]> {
  const toasts = await page.getByTestId('toast-error').allTextContents();
  const fields = await page.locator('p[id$="-error"]').allTextContents();
  return [...toasts, ...fields].map((t) => t.trim()).filter(Boolean);
}

async function expectNoFieldNames(page: Page): Promise<void> {
  const errors = await shownErrors(page);
  expect(errors.length, 'some error is shown').toBeGreaterThan(0);
  for (const text of errors) expect(text, `shown: ${text}`).not.toMatch(FIELD_NAME);
}

/**
 * Holds every upload request until it is let go, and answers the first one with a failure when asked:
 * the browser sees an upload that takes as long as the test wants.
 */
function slowUploads(page: Page, opts: { failFirst: boolean }) {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let seen = 0;
  const handler = async (route: Route) => {
    seen += 1;
    if (opts.failFirst && seen === 1) {
      await route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ message: 'The escrow service could not be reached. Try again in a moment.' }) });
      return;
    }
    await released;
    await route.continue();
  };
  return {
    install: () => page.route('**/data/uploads', handler),
    release: () => release(),
  };
}

test('the seller cannot mark a delivery while its proof uploads: the button waits and says so, a failed upload is offered again, then it delivers', async ({ browser }) => {
  const [ada, tunde] = await Promise.all([demoUserId('ada.obi'), demoUserId('tunde.balogun')]);
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: ada, amount: 20_000 });
  const tx = await api<{ id: string; milestones: Array<{ id: string }> }>(demoKey(), 'POST', '/v1/transactions', {
    title: `Slow proof ${unique()}`,
    description: 'Browser suite: uploads and forms',
    buyer_id: ada,
    seller_id: tunde,
    milestones: [{ title: 'Only milestone', description: 'Everything', amount: 10_000, due_date: inDays(21).toISOString() }],
  });
  await api(demoKey(), 'POST', `/v1/milestones/${tx.milestones[0]!.id}/fund`, { buyer_id: ada });

  const seller = await signedInPage(browser, DEMO.seller);
  await seller.goto(`/transactions/${tx.id}`);
  const milestone = seller.getByTestId('milestone-1');
  await milestone.getByRole('button', { name: 'Deliver with proof' }).click();
  const dialog = seller.getByRole('dialog');
  const deliver = dialog.getByRole('button', { name: 'Mark as delivered' });

  // Without a file the form says what is missing in its own words.
  await deliver.click();
  await expect(dialog.getByText('Add at least one proof of delivery', { exact: true })).toBeVisible();
  await expectNoFieldNames(seller);

  const uploads = slowUploads(seller, { failFirst: true });
  await uploads.install();
  const file = (name: string) => ({ name, mimeType: 'image/png', buffer: pngImage([16, 120, 90]) });

  // The first attempt fails: the file says so and offers to try again; the button is held meanwhile.
  await dialog.getByLabel('Proof of delivery').setInputFiles(file('waybill.png'));
  const attached = dialog.getByRole('list', { name: 'Attached files' });
  await expect(attached.getByRole('listitem').filter({ hasText: 'waybill.png' })).toContainText('The escrow service could not be reached');
  await expect(deliver).toBeDisabled();
  await expect(dialog.getByText('A file did not upload: try it again or remove it.')).toBeVisible();

  // Tried again, it is held in flight: the button waits, and says why.
  await dialog.getByRole('button', { name: 'Try waybill.png again' }).click();
  await expect(attached.getByText('Uploading…')).toBeVisible();
  await expect(deliver).toBeDisabled();
  await expect(dialog.getByText('Waiting for the upload…')).toBeVisible();
  // A second file picked while the first is in flight holds it as well.
  await dialog.getByLabel('Proof of delivery').setInputFiles(file('photo.png'));
  await expect(attached.getByRole('listitem')).toHaveCount(2);
  await expect(deliver).toBeDisabled();

  uploads.release();
  await expect(attached.getByText('Uploading…')).toHaveCount(0);
  await expect(dialog.getByText('Waiting for the upload…')).toHaveCount(0);
  await expect(deliver).toBeEnabled();
  await deliver.click();
  await expectToast(seller, /deliver/i);
  await expect(milestone.locator('[data-status]')).toHaveAttribute('data-status', 'UNDER_INSPECTION');
  await expect(milestone.getByRole('img', { name: 'Proof of delivery 2' })).toBeVisible();
  await seller.context().close();
});

test.describe('the admin creating a transaction', () => {
  let admin: Page;
  let buyerId = '';
  let sellerId = '';
  const title = `Form words ${unique()}`;

  test.beforeAll(async ({ browser }) => {
    const person = (first: string) =>
      api<{ id: string }>(demoKey(), 'POST', '/v1/users', { first_name: first, last_name: 'Forms', email_address: `${first.toLowerCase()}.${unique()}@e2e.escrowdesk.ng` });
    [buyerId, sellerId] = [(await person('Kemi')).id, (await person('Musa')).id];
    admin = await signedInPage(browser, DEMO.admin);
  });

  test.afterAll(async () => {
    await admin.context().close();
  });

  async function fillDeal(page: Page, a: { seller: string; due: string }): Promise<Locator> {
    await page.goto('/admin/transactions/new');
    await page.getByLabel('Title').first().fill(title);
    await page.getByLabel('Description').fill('Browser suite: a form refused in its own words');
    await page.getByLabel('Buyer (pays into escrow)').selectOption(buyerId);
    await page.getByLabel('Seller (delivers and is paid)').selectOption(a.seller);
    const m1 = page.getByTestId('milestone-input-1');
    await m1.getByLabel('Title').fill('Only milestone');
    await m1.getByLabel('Amount (₦)').fill('5000');
    await m1.getByLabel('What is delivered').fill('Everything');
    await m1.getByLabel('Due date').fill(a.due);
    return m1;
  }

  async function nothingCreated() {
    const list = await api<{ transactions: Array<{ title: string }> }>(demoKey(), 'GET', `/v1/transactions?user_id=${buyerId}&page=1&limit=20`);
    expect(list.transactions.filter((t) => t.title === title)).toHaveLength(0);
  }

  test('a due date in the past is refused before it is sent, in words, and by the action if the browser lets it through', async () => {
    const m1 = await fillDeal(admin, { seller: sellerId, due: lagosDay(inDays(-2)) });
    const create = admin.getByRole('button', { name: 'Create transaction' });
    await create.click();
    await expect(m1.getByText('The due date has passed: choose today or a later day')).toBeVisible();
    await expect(admin).toHaveURL(/\/admin\/transactions\/new$/);
    await expectNoFieldNames(admin);

    // A browser that ignores `min` (or a request made without the page) meets the action's own check.
    await m1.getByLabel('Due date').evaluate((input) => input.removeAttribute('min'));
    await create.click();
    await expect(m1.getByText('The due date of milestone 1 has passed: choose today or a later day')).toBeVisible();
    await expectToast(admin, 'The due date of milestone 1 has passed: choose today or a later day.', 'error');
    await expect(admin).toHaveURL(/\/admin\/transactions\/new$/);
    await expectNoFieldNames(admin);
    await nothingCreated();
  });

  test('the same person as buyer and seller is refused in plain words', async () => {
    await fillDeal(admin, { seller: buyerId, due: lagosDay(inDays(14)) });
    await admin.getByRole('button', { name: 'Create transaction' }).click();
    await expect(admin.getByText('The seller must be a different person from the buyer')).toBeVisible();
    await expectToast(admin, 'The buyer and the seller must be different users.', 'error');
    await expect(admin).toHaveURL(/\/admin\/transactions\/new$/);
    await expectNoFieldNames(admin);
    await nothingCreated();
  });
});
