/**
 * Issue #59 items 1–3 on the dashboard: the admin's transaction page shows "Integration details" (external reference,
 * the fee rate used, metadata) read-only, the customer page shows the customer's metadata, and the admin's transactions
 * search finds a deal by its external reference; at 390 px without sideways scrolling, and axe-clean.
 */
import { DEMO, api, demoKey, demoUserId, expect, horizontalOverflow, seriousAxeViolations, shot, signedInPage, test, unique } from './support';
import { reachFor } from './pickers';

test('the transaction page shows Integration details, the external reference and the fee; the admin search finds the reference', async ({ browser }) => {
  const run = unique();
  const [ada, tunde] = await Promise.all([demoUserId('ada.obi'), demoUserId('tunde.balogun')]);
  const reference = `ORD-${run}`;
  const tx = await api<{ id: string }>(demoKey(), 'POST', '/v1/transactions', {
    title: `Integration deal ${run}`,
    description: 'A deal of the integration details spec',
    buyer_id: ada,
    seller_id: tunde,
    external_reference: reference,
    fee_basis_points: 250,
    metadata: { order_channel: 'mobile-app', [`run_${run}`]: 'yes' },
    milestones: [{ title: 'Only part', description: 'Everything', amount: 8_000, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString(), metadata: { step: 'delivery' } }],
  });
  await api(demoKey(), 'PATCH', `/v1/users/${ada}`, { metadata: { crm_id: `CRM-${run}` } });

  const admin = await signedInPage(browser, DEMO.admin);
  await admin.goto(`/transactions/${tx.id}`);
  const details = admin.getByTestId('integration-details');
  await expect(details.getByRole('heading', { name: 'Integration details' })).toBeVisible();
  await expect(details).toContainText(reference);
  await expect(details).toContainText('2.5% (250 basis points)');
  await expect(details).toContainText('order_channel');
  await expect(details).toContainText('mobile-app');
  await expect(details).toContainText('Milestone 1 metadata');
  await expect(details).toContainText('step: delivery');
  await expect(admin.getByTestId('fee-rate')).toHaveText('Fee rate 2.5%');
  // The milestone's fee is explained at the rate this deal was given: 2.5% of ₦8,000.
  await expect(admin.getByText('Fee (2.5%)')).toBeVisible();
  expect(await seriousAxeViolations(admin)).toEqual([]);
  await admin.setViewportSize({ width: 390, height: 844 });
  await expect(details).toBeVisible();
  expect(await horizontalOverflow(admin)).toBe(0);
  await admin.setViewportSize({ width: 1280, height: 900 });

  await admin.goto(`/admin/customers/${ada}`);
  const customer = admin.getByTestId('integration-details');
  await expect(customer.getByRole('heading', { name: 'Integration details' })).toBeVisible();
  await expect(customer).toContainText(`CRM-${run}`);
  expect(await seriousAxeViolations(admin)).toEqual([]);

  await admin.goto('/admin/transactions');
  await admin.getByRole('search', { name: 'Filter transactions' }).getByLabel('Search transactions').fill(reference);
  const rows = admin.getByRole('table', { name: 'Transactions' }).getByRole('row').filter({ hasText: `Integration deal ${run}` });
  await expect(rows).toHaveCount(1, { timeout: 10_000 });
  await expect(rows.getByTestId('external-reference')).toHaveText(reference);
  await admin.context().close();

  // The customer sees the rate, not the integrator's labels.
  const buyer = await signedInPage(browser, DEMO.buyer);
  await buyer.goto(`/transactions/${tx.id}`);
  await expect(buyer.getByTestId('fee-rate')).toHaveText('Fee rate 2.5%');
  await expect(buyer.getByTestId('integration-details')).toHaveCount(0);
  // Not hidden only: the labels are not in what the customer's browser received (the page and its payload), here or on its list.
  for (const label of [reference, `run_${run}`, 'mobile-app']) expect(await buyer.content()).not.toContain(label);
  await buyer.goto('/transactions');
  await expect(buyer.getByText(`Integration deal ${run}`)).toBeVisible();
  for (const label of [reference, `run_${run}`, 'mobile-app']) expect(await buyer.content()).not.toContain(label);
  await buyer.context().close();
});

test('the admin sees a payout’s and a card payment’s metadata under Integration details, on the payouts list and the customer page', async ({ browser }) => {
  const run = unique();
  // A customer of its own, so the lists hold just this spec's payout and checkout.
  const customer = await api<{ id: string }>(demoKey(), 'POST', '/v1/users', { first_name: 'Femi', last_name: `Meta${run}`, email_address: `femi.${run}@example.com` });
  await api(demoKey(), 'POST', '/v1/wallets/banks/disbursement', { user_id: customer.id, account_number: '0016563228', bank_code: '058' });
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: customer.id, amount: 5_000 });
  await api(demoKey(), 'POST', '/v1/payouts', { user_id: customer.id, amount: 1_200, metadata: { settlement_batch: `SB-${run}` } });
  const checkout = await api<{ reference: string }>(demoKey(), 'POST', '/v1/checkouts', { buyer_id: customer.id, amount: 3_400, metadata: { cart_id: `CART-${run}` } });
  await api(demoKey(), 'POST', '/v1/checkouts', { buyer_id: customer.id, amount: 50 });

  const admin = await signedInPage(browser, DEMO.admin);
  await admin.goto('/admin/payouts');
  await reachFor(admin.getByLabel('Customer'));
  await admin.getByLabel('Customer').selectOption(customer.id);
  const payout = admin.getByTestId('payout');
  await expect(payout).toHaveCount(1);
  const payoutDetails = payout.getByTestId('integration-details');
  await expect(payoutDetails.getByRole('heading', { name: 'Integration details' })).toBeVisible();
  await expect(payoutDetails.getByTestId('metadata-pair')).toHaveText([`settlement_batch: SB-${run}`]);
  expect(await seriousAxeViolations(admin)).toEqual([]);

  await admin.goto(`/admin/customers/${customer.id}`);
  await expect(admin.getByTestId('payout').getByTestId('metadata-pair')).toHaveText([`settlement_batch: SB-${run}`]);
  await expect(admin.getByTestId('customer-checkout')).toHaveCount(2);
  // The metadata is under its checkout's row, across the table; a checkout without metadata has no empty box.
  const withMetadata = admin.locator(`[data-testid="customer-checkout-details"][data-reference="${checkout.reference}"]`);
  await expect(withMetadata.getByRole('heading', { name: 'Integration details' })).toBeVisible();
  await expect(withMetadata.getByTestId('metadata-pair')).toHaveText([`cart_id: CART-${run}`]);
  await expect(admin.getByTestId('customer-checkout-details')).toHaveCount(1);
  expect(await seriousAxeViolations(admin)).toEqual([]);
  await shot(admin, 'admin-customer-checkout-metadata');
  await admin.setViewportSize({ width: 390, height: 844 });
  await expect(withMetadata.getByTestId('metadata-pair')).toBeVisible();
  expect(await horizontalOverflow(admin)).toBe(0);
  expect(await seriousAxeViolations(admin)).toEqual([]);
  await withMetadata.scrollIntoViewIfNeeded();
  await shot(admin, 'admin-customer-checkout-metadata-390');
  await admin.context().close();
});
