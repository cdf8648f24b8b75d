/**
 * Issue #27 item 10: each wallet line of a deal names and links its deal; the admin's transactions list
 * filters by text, amount and created day, and downloads exactly the filtered rows as CSV with formula
 * cells neutralised. Other specs share the demo server, so every row here carries this run's id.
 */
import { readFile } from 'node:fs/promises';
import { DEMO, api, demoKey, demoUserId, expect, expect as baseExpect, signedInPage, test, unique } from './support';

type Created = { id: string; created_at: string; milestones: Array<{ id: string }> };

/** The Lagos day (UTC+1) of an ISO instant. */
const lagosDay = (instant: string) => new Date(Date.parse(instant) + 3_600_000).toISOString().slice(0, 10);
const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

async function deal(title: string, amount: number, fund = false): Promise<Created> {
  const [ada, tunde] = await Promise.all([demoUserId('ada.obi'), demoUserId('tunde.balogun')]);
  const tx = await api<Created>(demoKey(), 'POST', '/v1/transactions', {
    title,
    description: 'A deal of the lists spec',
    buyer_id: ada,
    seller_id: tunde,
    milestones: [{ title: `First part of ${title}`, description: 'Everything', amount, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString() }],
  });
  if (fund) {
    await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: ada, amount: amount * 2 });
    await api(demoKey(), 'POST', `/v1/milestones/${tx.milestones[0]!.id}/fund`, { buyer_id: ada });
  }
  return tx;
}

test('a customer with two deals sees each "Funding of milestone 1" line name and link its own deal', async ({ browser }) => {
  const run = unique();
  const first = await deal(`Rice bags ${run}`, 1_200, true);
  const second = await deal(`Palm oil ${run}`, 3_400, true);
  const page = await signedInPage(browser, DEMO.buyer);
  await page.goto('/wallet');
  const lines = page.getByTestId('wallet-entry').filter({ hasText: run });
  await expect(lines).toHaveCount(2);
  for (const [tx, title, amount] of [
    [second, `Palm oil ${run}`, '3,400'],
    [first, `Rice bags ${run}`, '1,200'],
  ] as const) {
    const line = lines.filter({ hasText: title });
    await expect(line).toContainText('Funding of milestone 1');
    await expect(line).toContainText(`First part of ${title}`);
    await expect(line).toContainText(amount);
    await expect(line.getByRole('link', { name: title })).toHaveAttribute('href', `/transactions/${tx.id}`);
  }
  await lines.getByRole('link', { name: `Rice bags ${run}` }).click();
  await page.waitForURL(`**/transactions/${first.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Rice bags ${run}`, exact: true })).toBeVisible();
  await page.context().close();

  // The admin viewing Ada sees the same lines, linking the same deals.
  const admin = await signedInPage(browser, DEMO.admin);
  await admin.goto(`/admin/customers/${await demoUserId('ada.obi')}`);
  const adminLines = admin.getByTestId('wallet-entry').filter({ hasText: run });
  await expect(adminLines).toHaveCount(2);
  await expect(adminLines.getByRole('link', { name: `Palm oil ${run}` })).toHaveAttribute('href', `/transactions/${second.id}`);
  await expect(adminLines.getByRole('link', { name: `Rice bags ${run}` })).toHaveAttribute('href', `/transactions/${first.id}`);
  await admin.context().close();
});

test('the admin filters transactions by text, amount and created day, and downloads exactly those rows as CSV', async ({ browser }) => {
  // A filter applies at once, not at the list's next poll (every 15 s): each change is one round trip through the data
  // route and the API, well inside 10 s even on a busy machine.
  const expect = baseExpect.configure({ timeout: 10_000 });
  const run = unique();
  const formula = await deal(`=HYPERLINK("x") ${run}`, 1_500);
  const cement = await deal(`Cement, "grade A" ${run}`, 90_000.5);
  const generator = await deal(`Generator ${run}`, 40_000);
  const page = await signedInPage(browser, DEMO.admin);
  await page.goto('/admin/transactions');
  const filters = page.getByRole('search', { name: 'Filter transactions' });
  const table = page.getByRole('table', { name: 'Transactions' });
  const rows = table.getByRole('row').filter({ hasText: run });

  await filters.getByLabel('Search transactions').fill(run);
  await expect(rows).toHaveCount(3);
  await expect(table.getByRole('row')).toHaveCount(4); // the header and this run's three

  await filters.getByLabel('Amount from (₦)').fill('40000');
  await filters.getByLabel('Amount to (₦)').fill('90000.50');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Cement' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Generator' })).toHaveCount(1);

  const day = lagosDay(cement.created_at);
  await filters.getByLabel('Created from').fill(day);
  await filters.getByLabel('Created to').fill(lagosDay(generator.created_at));
  await expect(rows).toHaveCount(2);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv.split('\r\n').filter((l) => l !== '');
  expect(lines[0]).toBe('id,title,status,buyer,buyer_email,seller,seller_email,amount,currency,created_at');
  expect(lines).toHaveLength(3);
  const byId = new Map(lines.slice(1).map((l) => [l.slice(0, 36), l]));
  expect([...byId.keys()].sort()).toEqual([cement.id, generator.id].sort());
  expect(byId.get(cement.id)).toContain(`,"Cement, ""grade A"" ${run}",`);
  expect(byId.get(cement.id)).toContain(',90000.50,NGN,');
  expect(byId.get(cement.id)).toMatch(/,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  expect(byId.get(generator.id)).toContain(',40000,NGN,');

  // A day before the deals were made: nothing.
  await filters.getByLabel('Created from').fill(dayBefore(day));
  await filters.getByLabel('Created to').fill(dayBefore(day));
  await expect(page.getByText('No transaction matches these filters')).toBeVisible();

  // Only the text: all three, the formula title neutralised in the file.
  for (const label of ['Created from', 'Created to', 'Amount from (₦)', 'Amount to (₦)']) await filters.getByLabel(label).fill('');
  await expect(rows).toHaveCount(3);
  const [all] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
  const allLines = (await readFile((await all.path())!, 'utf8')).split('\r\n').filter((l) => l !== '');
  expect(allLines).toHaveLength(4);
  const formulaLine = allLines.find((l) => l.startsWith(formula.id));
  expect(formulaLine).toContain(`,"'=HYPERLINK(""x"") ${run}",`);
  expect(formulaLine).toContain(',1500,NGN,');
  await page.context().close();
});

test('the customer picker loads when reached for by keyboard, and offers a retry when it fails', async ({ browser }) => {
  const page = await signedInPage(browser, DEMO.admin);
  await page.goto('/admin/payouts');
  const picker = page.getByRole('search', { name: 'Filter payouts' }).getByLabel('Customer');
  await expect(picker.locator('option')).toHaveCount(1);
  // The first answer fails: the field says so and offers to ask again.
  let failing = true;
  await page.route('**/data/customers/options', (route) => (failing ? route.fulfill({ status: 503, json: { message: 'Unavailable' } }) : route.fallback()));
  await expect(async () => {
    await picker.blur();
    await picker.focus();
    await expect(page.getByText('The customers could not be loaded.')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  failing = false;
  await page.getByRole('button', { name: 'Try again' }).press('Enter');
  await expect(picker.locator('option').nth(1)).toBeAttached();
  await expect(page.getByText('The customers could not be loaded.')).toHaveCount(0);
  await page.context().close();
});
