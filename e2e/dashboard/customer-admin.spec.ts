import { acceptInviteAndSignIn, createCustomerInDashboard } from './staging';
import { DEMO, api, demoKey, expect, expectToast, shot, signedInPage, test, unique } from './support';

/**
 * An admin edits a customer and deactivates them (issue #27 item 10): the new name and phone show on the
 * customer's page and wallet; a deactivated customer's open session ends, they cannot sign in (and are told
 * why), no new deal offers or accepts them, and reactivating undoes all of it. Each change is audited.
 */
test('an admin edits a customer’s details, deactivates them (their session ends, no new deal names them) and reactivates them', async ({ browser }) => {
  test.setTimeout(180_000);
  const base = process.env.DASHBOARD_BASE_URL!;
  const email = `kemi.${unique()}@customers.example`;
  const password = 'customer password 12345';
  const admin = await signedInPage(browser, DEMO.admin);
  await admin.goto('/admin/customers');
  const link = await createCustomerInDashboard(admin, { first: 'Kemi', last: 'Adeyemi', email });
  const customer = await acceptInviteAndSignIn(browser, { base, link, email, password, home: /\/transactions$/ });

  // Edit: name and phone, through the dialog.
  await admin.getByRole('status').getByRole('link', { name: 'Open their page' }).click();
  await expect(admin.getByRole('heading', { name: 'Kemi Adeyemi', level: 1 })).toBeVisible();
  const userId = admin.url().split('/').pop()!;
  await admin.getByRole('button', { name: 'Edit details' }).click();
  const editor = admin.getByRole('dialog', { name: 'Edit Kemi Adeyemi' });
  await editor.getByLabel('Last name').fill('Adeyemi-Okoro');
  await editor.getByLabel('Phone (optional)').fill('not a phone');
  await editor.getByRole('button', { name: 'Save details' }).click();
  await expect(editor.getByText('The phone must be 7 to 15 digits, optionally with a leading +', { exact: true })).toBeVisible();
  await editor.getByLabel('Phone (optional)').fill('+2348031234567');
  await editor.getByRole('button', { name: 'Save details' }).click();
  await expectToast(admin, 'Kemi Adeyemi-Okoro’s details were saved.');
  await expect(editor).toBeHidden();
  await expect(admin.getByRole('heading', { name: 'Kemi Adeyemi-Okoro', level: 1 })).toBeVisible();
  await expect(admin.getByText('+2348031234567')).toBeVisible();
  const wallet = await api(demoKey(), 'GET', `/v1/wallets/${userId}`);
  expect(wallet.name).toBe('Kemi Adeyemi-Okoro');

  // Deactivate: the question says what happens; then the badge, the list and the customer's own session.
  await admin.getByRole('button', { name: 'Deactivate' }).click();
  const question = admin.getByRole('dialog', { name: 'Deactivate Kemi?' });
  await expect(question).toContainText('No new transaction may name Kemi, and Kemi can no longer sign in.');
  await expect(question).toContainText('Kemi has no open transactions.');
  await question.getByRole('button', { name: 'Deactivate' }).click();
  await expectToast(admin, 'Kemi Adeyemi-Okoro is deactivated');
  await expect(admin.getByText('Deactivated', { exact: true })).toBeVisible();
  await expect(admin.getByRole('button', { name: /Invite to the dashboard|Make a new invite link/ })).toHaveCount(0);
  await shot(admin, 'customer-deactivated');

  await admin.goto('/admin/customers');
  await admin.getByLabel('Search by name or email').fill(email);
  const row = admin.getByRole('row').filter({ hasText: email });
  await expect(row.getByText('Deactivated')).toBeVisible({ timeout: 30_000 });

  await admin.goto('/admin/transactions/new');
  await expect(admin.getByLabel('Buyer (pays into escrow)').locator('option').nth(1)).toBeAttached();
  expect(await admin.getByLabel('Buyer (pays into escrow)').locator('option', { hasText: email }).count()).toBe(0);
  expect(await admin.getByLabel('Seller (delivers and is paid)').locator('option', { hasText: email }).count()).toBe(0);

  await customer.reload();
  await expect(customer).toHaveURL(/\/login/);
  await customer.getByLabel('Email').fill(email);
  await customer.getByLabel('Password').fill(password);
  await customer.getByRole('button', { name: 'Sign in' }).click();
  await expect(customer.getByText('The marketplace has deactivated your account, so you cannot sign in.')).toBeVisible();

  // Reactivate: offered again, and the customer signs in.
  await admin.goto(`/admin/customers/${userId}`);
  await admin.getByRole('button', { name: 'Reactivate' }).click();
  await admin.getByRole('dialog', { name: 'Reactivate Kemi?' }).getByRole('button', { name: 'Reactivate' }).click();
  await expectToast(admin, 'Kemi Adeyemi-Okoro is active again');
  await expect(admin.getByText('Active', { exact: true })).toBeVisible();
  await admin.goto('/admin/transactions/new');
  await expect(admin.getByLabel('Buyer (pays into escrow)').locator('option', { hasText: email })).toHaveCount(1);
  await customer.getByRole('button', { name: 'Sign in' }).click();
  await customer.waitForURL(/\/transactions$/);

  // Every change is in the audit log.
  await admin.goto('/admin/audit');
  for (const [action, words] of [
    ['customer_updated', "Changed a customer's details"],
    ['customer_deactivated', 'Deactivated a customer'],
    ['customer_reactivated', 'Reactivated a customer'],
  ] as const) {
    const entry = admin.locator(`[data-testid="audit-row"][data-action="${action}"]`).filter({ hasText: 'Kemi Adeyemi-Okoro' }).first();
    await expect(entry.getByTestId('audit-action')).toHaveText(words);
  }
});
