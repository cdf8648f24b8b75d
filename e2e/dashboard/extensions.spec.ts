import type { Page } from '@playwright/test';
import { api, DEMO, demoKey, demoUserId, expect, expectToast, horizontalOverflow, seriousAxeViolations, signedInPage, test, unique } from './support';

/**
 * A due date moved by agreement through the browser (docs/decisions.md §13): the seller asks for more time on a
 * funded milestone, the buyer sees the request as its move, reads the date asked for and when its answer
 * is due, and approves; the milestone is then due on the new day. At a phone's width for the buyer.
 */
test.describe.configure({ mode: 'serial' });

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);
const lagosDay = (d: Date) => d.toLocaleDateString('en-CA', { timeZone: 'Africa/Lagos' });
const shownDay = (d: Date) => d.toLocaleDateString('en-NG', { dateStyle: 'medium', timeZone: 'Africa/Lagos' });

let buyer: Page;
let seller: Page;

test.beforeAll(async ({ browser }) => {
  buyer = await signedInPage(browser, DEMO.buyer);
  seller = await signedInPage(browser, DEMO.seller);
});

test('the seller asks for a later due date and the buyer approves it: the milestone is due on the new day', async () => {
  const [ada, tunde] = [await demoUserId('ada.obi'), await demoUserId('tunde.balogun')];
  const title = `More time ${unique()}`;
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: ada, amount: 30_000 });
  const tx = await api<{ id: string; milestones: Array<{ id: string }> }>(demoKey(), 'POST', '/v1/transactions', {
    title,
    description: 'Browser suite: moving a due date',
    buyer_id: ada,
    seller_id: tunde,
    milestones: [{ title: 'Fabrication', description: 'Steel frames', amount: 20_000, due_date: inDays(10).toISOString() }],
  });
  await api(demoKey(), 'POST', `/v1/milestones/${tx.milestones[0]!.id}/fund`, { buyer_id: ada });
  const asked = inDays(24);

  await seller.goto(`/transactions/${tx.id}`);
  await seller.getByRole('button', { name: 'Ask for more time' }).click();
  const dialog = seller.getByRole('dialog');
  await expect(dialog).toContainText('No money moves');
  await dialog.getByLabel('New due date').fill(lagosDay(asked));
  await dialog.getByLabel('Why do you need more time?').fill('The steel delivery slipped a fortnight');
  await dialog.getByRole('button', { name: 'Ask the buyer' }).click();
  await expect(dialog).toBeHidden();
  await expectToast(seller, /Extension requested/);
  await expect(seller.getByTestId('due-date-extension')).toContainText('You asked to move the due date');
  await expect(seller.getByTestId('due-date-extension')).toContainText('Waiting for the buyer’s answer');
  await expect(seller.getByRole('button', { name: 'Ask for more time' })).toHaveCount(0);

  // The answer is the buyer's move, listed with what to do.
  await buyer.goto('/transactions');
  await expect(buyer.getByRole('region', { name: /Needs your action/ }).getByRole('link', { name: new RegExp(title) })).toContainText('Your move: Answer the new due date');

  await buyer.setViewportSize({ width: 390, height: 844 });
  await buyer.goto(`/transactions/${tx.id}`);
  const request = buyer.getByTestId('due-date-extension');
  await expect(request).toContainText(`to ${shownDay(asked)}`);
  await expect(request).toContainText('“The steel delivery slipped a fortnight”');
  await expect(request).toContainText(/Without an answer by .+ it is declined and the date stands\./);
  await expect(buyer.getByTestId('deadline-extension_response')).toBeVisible();
  expect(await horizontalOverflow(buyer)).toBe(0);
  expect(await seriousAxeViolations(buyer)).toEqual([]);

  await buyer.getByRole('button', { name: 'Approve the new date' }).click();
  const confirm = buyer.getByRole('dialog');
  await expect(confirm).toContainText(`becomes due ${shownDay(asked)}`);
  await confirm.getByRole('button', { name: 'Approve' }).click();
  await expectToast(buyer, /Extension approved/);
  await expect(buyer.getByTestId('milestone-1')).toContainText(shownDay(asked));
  await expect(buyer.getByTestId('due-date-extension')).toContainText('was approved');
  await expect(buyer.getByTestId('deadline-extension_response')).toHaveCount(0);

  const milestone = await api<{ due_date: string; current_extension_index: number | null }>(demoKey(), 'GET', `/v1/milestones/${tx.milestones[0]!.id}`);
  expect(milestone.current_extension_index).toBe(0);
  expect(lagosDay(new Date(milestone.due_date))).toBe(lagosDay(asked));
});
