import { api, demoKey, expect, horizontalOverflow, seriousAxeViolations, shot, test, unique } from './support';

/**
 * The sandbox's payment page (docs/decisions.md §16) through the browser, without signing in: at 390 px it shows the
 * merchant, what is paid for and the exact amount, with Pay and Decline; Pay does what the pay test helper does and
 * sends the browser to callback_url?reference=…; Decline without a callback_url shows the outcome on the page.
 */
const PHONE = { width: 390, height: 844 };
const run = unique();

type Checkout = { id: string; reference: string; status: string; applied: boolean | null; authorization_url: string };

async function buyerWithDeal(amount: number) {
  const key = demoKey();
  const buyer = await api<{ id: string }>(key, 'POST', '/v1/users', { first_name: 'Kemi', last_name: 'Adebayo', email_address: `kemi.${run}.${amount}@example.com` });
  const seller = await api<{ id: string }>(key, 'POST', '/v1/users', { first_name: 'Bayo', last_name: 'Lawal', email_address: `bayo.${run}.${amount}@example.com` });
  const deal = await api<{ milestones: Array<{ id: string }> }>(key, 'POST', '/v1/transactions', {
    title: 'Hand-woven aso-oke',
    description: 'Two pieces',
    buyer_id: buyer.id,
    seller_id: seller.id,
    milestones: [{ title: 'First piece', description: 'Woven and finished', amount, due_date: new Date(Date.now() + 10 * 86_400_000).toISOString() }],
  });
  return { buyerId: buyer.id, milestoneId: deal.milestones[0]!.id };
}

test('a buyer on a phone pays a milestone on the page and is sent back to the shop with the reference', async ({ browser, baseURL }) => {
  const { buyerId, milestoneId } = await buyerWithDeal(1234.56);
  const callback = `${baseURL}/shop-return-${run}`;
  const created = await api<Checkout>(demoKey(), 'POST', '/v1/checkouts', { buyer_id: buyerId, milestone_id: milestoneId, callback_url: callback });
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await page.goto(created.authorization_url);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('₦1,234.56');
  await expect(page.getByText('Pay Demo Marketplace')).toBeVisible();
  await expect(page.getByText(/First piece.*Hand-woven aso-oke/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Decline' })).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await shot(page, 'checkout-page-390');

  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(`${callback}?reference=${created.reference}`);
  const paid = await api<Checkout>(demoKey(), 'GET', `/v1/checkouts/${created.id}`);
  expect(paid).toMatchObject({ status: 'PAID', applied: true });
  expect((await api<{ status: string }>(demoKey(), 'GET', `/v1/milestones/${milestoneId}`)).status).toBe('IN_PROGRESS');
  await context.close();
});

test('Decline without a callback_url shows the outcome on the page, which can then no longer be answered', async ({ browser }) => {
  const { buyerId } = await buyerWithDeal(500);
  const created = await api<Checkout>(demoKey(), 'POST', '/v1/checkouts', { buyer_id: buyerId, amount: 750 });
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await page.goto(created.authorization_url);
  await expect(page.getByText('Money into your wallet')).toBeVisible();
  await page.getByRole('button', { name: 'Decline' }).click();
  await expect(page.getByRole('status')).toContainText('This payment was declined.');
  await expect(page.getByRole('button', { name: 'Pay' })).toHaveCount(0);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect((await api<Checkout>(demoKey(), 'GET', `/v1/checkouts/${created.id}`)).status).toBe('FAILED');
  await context.close();
});

test('an unknown reference is not found', async ({ page }) => {
  const response = await page.goto('/checkout/CO_AAAAAAAAAAAAAAAAAAAA');
  expect(response?.status()).toBe(404);
});
