import type { Page } from '@playwright/test';
import { api, DEMO, demoKey, demoUserId, expect, horizontalOverflow, seriousAxeViolations, signedInPage, test, unique } from './support';

/**
 * Issue #27 item 11: the admin's overview shows the API's figures (computed from the ledger), a release
 * made through the API shows on reload, each figure links to its list, and the monthly chart has a text
 * alternative. Other specs move the demo client's money at the same time: the page is compared with the
 * API read alongside it, and the release as a growth of at least its amount.
 */
type Overview = { released_this_month: number; held_in_escrow: number; fees_this_month: number; open_disputes: number; months: Array<{ month: string }> };

const overview = () => api<Overview>(demoKey(), 'GET', '/v1/reports/overview');
const amountOf = (text: string) => Number(text.replace(/[₦,\s]/g, ''));
const figure = async (page: Page, id: string) => amountOf(await page.getByTestId(`figure-${id}`).getByTestId('figure-value').innerText());

/** The page's figure and the API's, read together until they agree (another spec may move money in between). */
async function expectPageAgrees(page: Page, read: (o: Overview) => number, id: string) {
  await expect
    .poll(async () => {
      await page.reload();
      const [shown, told] = await Promise.all([figure(page, id), overview().then(read)]);
      return shown === told ? 'agree' : `page ${shown}, API ${told}`;
    }, { timeout: 30_000, intervals: [500, 1000, 2000] })
    .toBe('agree');
}

/** A one-milestone deal from Ada to Tunde, funded, delivered and approved; the buyer pays the fee, so Tunde gets `amount`. */
async function release(amount: number) {
  const [buyer, seller] = await Promise.all([demoUserId('ada.obi'), demoUserId('tunde.balogun')]);
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: buyer, amount: amount * 2 });
  const tx = await api<{ milestones: Array<{ id: string }> }>(demoKey(), 'POST', '/v1/transactions', {
    title: `Overview release ${unique()}`,
    description: 'Overview spec',
    buyer_id: buyer,
    seller_id: seller,
    commission_payer: 'BUYER_100',
    milestones: [{ title: 'Only milestone', description: 'Everything', amount, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString() }],
  });
  const m = tx.milestones[0]!.id;
  await api(demoKey(), 'POST', `/v1/milestones/${m}/fund`, { buyer_id: buyer });
  await api(demoKey(), 'POST', `/v1/milestones/${m}/deliver`, { seller_id: seller, proofs_of_completion: ['https://example.com/waybill.pdf'] });
  await api(demoKey(), 'POST', `/v1/milestones/${m}/approve`, { buyer_id: buyer });
}

test('the admin lands on the overview; its figures are the API’s, a release shows, figures link to their lists, the chart has its table', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signedInPage(browser, DEMO.admin);
  await expect(page).toHaveURL(/\/admin\/overview$/);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link').first()).toHaveText('Overview');

  await expectPageAgrees(page, (o) => o.held_in_escrow, 'held');
  await expectPageAgrees(page, (o) => o.fees_this_month, 'fees');
  await expectPageAgrees(page, (o) => o.open_disputes, 'open-disputes');

  const before = await overview();
  await release(1234.56);
  const after = await overview();
  expect(Math.round((after.released_this_month - before.released_this_month) * 100)).toBeGreaterThanOrEqual(123_456);
  await expectPageAgrees(page, (o) => o.released_this_month, 'released');

  // The chart: bars drawn in an svg, and the same numbers as a table beneath it.
  const chart = page.getByTestId('overview-chart');
  await expect(chart.locator('svg').first()).toBeVisible();
  await expect.poll(() => chart.locator('path.recharts-rectangle').count()).toBeGreaterThan(0);
  await expect(chart).toHaveAttribute('aria-label', /Bar chart of money by month/);
  const table = page.getByRole('table', { name: 'Money by month, in naira' });
  await expect(table.locator('tbody tr')).toHaveCount(after.months.length);
  expect(await seriousAxeViolations(page)).toEqual([]);

  await page.getByTestId('figure-released').click();
  await expect(page).toHaveURL(/\/admin\/transactions\?status=COMPLETED$/);
  await expect(page.getByLabel('Status')).toHaveValue('COMPLETED');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin/overview');
  await expect(page.getByTestId('overview-chart').locator('svg').first()).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);
  // Every monthly amount lies within the phone's width: a box that hides its overflow would cut them off unnoticed.
  const amounts = page.getByRole('table', { name: 'Money by month, in naira' }).locator('td').filter({ hasText: '₦' });
  expect(await amounts.count()).toBe(after.months.length * 4);
  for (const cell of await amounts.all()) {
    const box = (await cell.boundingBox())!;
    expect(box.x, `${await cell.innerText()} starts on the screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${await cell.innerText()} ends on the screen`).toBeLessThanOrEqual(390);
    expect(box.height, `${await cell.innerText()} has room to show`).toBeGreaterThan(4);
  }
  await page.context().close();
});
