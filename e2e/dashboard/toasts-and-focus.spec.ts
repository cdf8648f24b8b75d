import type { Locator, Page } from '@playwright/test';
import { api, DEMO, demoKey, demoUserId, expect, expectToast, pngImage, signedInPage, test, unique } from './support';

/**
 * Issue #27 item 8: toasts show above an open modal dialog (not dimmed behind its backdrop) and clear of the
 * button just pressed; focus never drops to <body> after an action, after choosing a file or after closing
 * the notifications list; Enter twice in the sandbox amount field adds the money rather than cancelling.
 * A fresh buyer (created through the API) and the demo seller Tunde, so no other spec's balances move.
 */
test.describe.configure({ mode: 'serial' });

const run = unique();
const title = `Toast check ${run}`;
let admin: Page;
let seller: Page;
let txUrl = '';
let firstName = '';

const milestone = (page: Page, n: number) => page.getByTestId(`milestone-${n}`);
const bodyHasFocus = (page: Page) => page.evaluate(() => document.activeElement === null || document.activeElement === document.body);

/** The element drawn at the middle of the locator's box is the locator's own (nothing covers it, it is not under a backdrop). */
const onTop = (el: Locator) =>
  el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit !== null && node.contains(hit);
  });

async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) throw new Error('no box');
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

test.beforeAll(async ({ browser }) => {
  firstName = `Toast${run.slice(-4)}`;
  const buyer = await api<{ id: string }>(demoKey(), 'POST', '/v1/users', { first_name: firstName, last_name: 'Buyer', email_address: `toast.${run}@example.com` });
  const tunde = await demoUserId('tunde.balogun');
  const tx = await api<{ id: string }>(demoKey(), 'POST', '/v1/transactions', {
    title,
    description: 'Browser suite: toasts and focus',
    buyer_id: buyer.id,
    seller_id: tunde,
    milestones: [
      { title: 'Pallets', description: 'Forty pallets', amount: 50_000, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString() },
      { title: 'Wrapping', description: 'Shrink wrap', amount: 5_000, due_date: new Date(Date.now() + 28 * 86_400_000).toISOString() },
    ],
  });
  txUrl = `/transactions/${tx.id}`;
  admin = await signedInPage(browser, DEMO.admin);
  seller = await signedInPage(browser, DEMO.seller);
});

test('Enter in the sandbox amount field asks, and a second Enter adds the money; focus stays in the form', async () => {
  await admin.goto(txUrl);
  const amount = admin.getByLabel(new RegExp(`Sandbox: add money to ${firstName}`));
  await amount.fill('12000');
  await amount.press('Enter');
  const dialog = admin.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Add money' })).toBeFocused();
  await admin.keyboard.press('Enter');
  await expectToast(admin, /fund|credit|wallet/i);
  await expect(dialog).toBeHidden();
  await expect(admin.getByTestId('buyer-balance')).toHaveText('₦12,000.00');
  await expect(amount).toBeFocused();
});

test('a toast raised with a confirmation open shows above the dialog and its backdrop, clear of the button pressed', async () => {
  await admin.goto(txUrl);
  await milestone(admin, 1).getByRole('button', { name: 'Fund milestone' }).click();
  const dialog = admin.getByRole('dialog');
  const pressed = dialog.getByRole('button', { name: 'Fund milestone' });
  await expect(pressed).toBeFocused();
  await pressed.click();
  // ₦50,000 from a wallet of ₦12,000: refused, and the dialog stays open with the reason in a toast.
  const toast = admin.getByTestId('toast-error').first();
  await expect(toast).toBeVisible();
  await expect(dialog).toBeVisible();
  await expect.poll(() => onTop(toast)).toBe(true);
  await expect.poll(() => overlaps(toast, pressed)).toBe(false);
  await expect(toast.getByRole('alert')).not.toBeEmpty();
  // The button was busy while sending, not disabled: focus is still in the dialog, not on <body>.
  await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(milestone(admin, 1).getByRole('button', { name: 'Fund milestone' })).toBeFocused();
});

test('after an action whose button goes away, focus lands on the heading of its section, not on <body>', async () => {
  const buyer = (await api<{ users: Array<{ id: string }> }>(demoKey(), 'GET', `/v1/users?page=1&limit=1&sort=DESC&search=toast.${run}`)).users[0]!.id;
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: buyer, amount: 40_000 });
  await admin.goto(txUrl);
  await expect(admin.getByTestId('buyer-balance')).toHaveText('₦52,000.00');
  await milestone(admin, 1).getByRole('button', { name: 'Fund milestone' }).click();
  const pressed = admin.getByRole('dialog').getByRole('button', { name: 'Fund milestone' });
  await pressed.click();
  await expectToast(admin, /fund/i);
  await expect(milestone(admin, 1).locator('[data-status]')).toHaveAttribute('data-status', 'IN_PROGRESS');
  await expect(milestone(admin, 1).getByRole('button', { name: 'Fund milestone' })).toHaveCount(0);
  await expect(milestone(admin, 1).getByRole('heading', { name: 'Pallets' })).toBeFocused();
  expect(await bodyHasFocus(admin)).toBe(false);
});

test('on a phone the toast shows at the top, clear of the form and its button', async () => {
  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.goto(txUrl);
  const amount = admin.getByLabel(new RegExp(`Sandbox: add money to ${firstName}`));
  await amount.scrollIntoViewIfNeeded();
  await amount.fill('1000');
  await amount.press('Enter');
  await admin.keyboard.press('Enter');
  const toast = admin.getByTestId('toast-success').filter({ hasText: /fund|credit|wallet/i }).first();
  await expect(toast).toBeVisible();
  await expect(admin.getByTestId('buyer-balance')).toHaveText('₦3,000.00');
  await expect.poll(async () => (await toast.boundingBox())!.y).toBeLessThan(100);
  await expect.poll(() => overlaps(toast, admin.getByRole('button', { name: 'Fund wallet' }))).toBe(false);
  await expect.poll(() => overlaps(toast, amount)).toBe(false);
  await expect.poll(() => onTop(toast)).toBe(true);
  await admin.setViewportSize({ width: 1280, height: 900 });
});

test('choosing a proof keeps focus on the file control, and removing one puts it back there', async () => {
  await seller.goto(txUrl);
  await milestone(seller, 1).getByRole('button', { name: 'Deliver with proof' }).click();
  const dialog = seller.getByRole('dialog');
  const input = dialog.getByLabel('Proof of delivery');
  await input.focus();
  await input.setInputFiles({ name: 'pallets.png', mimeType: 'image/png', buffer: pngImage([120, 90, 30]) });
  await expect(dialog.getByRole('list', { name: 'Attached files' })).toContainText('pallets.png');
  await expect(input).toBeFocused();
  await dialog.getByRole('button', { name: 'Remove pallets.png' }).click();
  await expect(dialog.getByRole('list', { name: 'Attached files' })).toHaveCount(0);
  await expect(input).toBeFocused();
  await seller.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(milestone(seller, 1).getByRole('button', { name: 'Deliver with proof' })).toBeFocused();
});

test('closing the notifications list with Escape puts focus back on the bell', async () => {
  await seller.goto(txUrl);
  const bell = seller.getByTestId('notification-bell');
  await bell.click();
  const panel = seller.getByRole('region', { name: 'Notifications', exact: true });
  const line = panel.getByRole('link').first();
  await expect(line).toBeVisible();
  await line.focus();
  await seller.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(bell).toBeFocused();
});
