import { api, DEMO, demoKey, expect, horizontalOverflow, seriousAxeViolations, signedInPage, test } from './support';

/**
 * The admin's API keys page (docs/decisions.md §14, issue #26 item 3): the public key and the secret keys by their
 * last 4 characters; rolling shows the new key once, keeps the old one working for the chosen hours, and
 * the dashboard goes on working with the new key. At a phone's width, with no serious axe violation.
 */
test('the admin rolls the secret key: the new key is shown once, the old one keeps working, and so does the dashboard', async ({ browser }) => {
  const admin = await signedInPage(browser, DEMO.admin);
  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.goto('/admin/keys');
  await expect(admin.getByTestId('public-key')).toHaveText(/^pk_test_/);
  const keys = admin.getByRole('list', { name: 'Secret keys' });
  await expect(keys).toContainText(`sk_••••${demoKey().slice(-4)}`);
  await expect(admin.locator('body')).not.toContainText(demoKey());
  expect(await horizontalOverflow(admin)).toBe(0);
  expect(await seriousAxeViolations(admin)).toEqual([]);

  await admin.getByLabel('The keys that work now').selectOption('24');
  await admin.getByRole('button', { name: 'Roll secret key' }).click();
  const confirm = admin.getByRole('dialog');
  await expect(confirm).toContainText('keep working for 24 hours');
  await confirm.getByRole('button', { name: 'Roll the key' }).click();
  const shown = admin.getByTestId('new-secret-key');
  await expect(shown).toHaveValue(/^sk_test_/);
  const newKey = await shown.inputValue();
  expect(newKey).not.toBe(demoKey());
  await expect(keys).toContainText(`sk_••••${newKey.slice(-4)}`);
  await expect(keys.getByRole('listitem').filter({ hasText: demoKey().slice(-4) })).toContainText('works until');

  // Both keys act for the client; the dashboard already acts with the new one.
  const listed = await api<{ keys: Array<{ last4: string }> }>(newKey, 'GET', '/v1/keys');
  expect(listed.keys[0]!.last4).toBe(newKey.slice(-4));
  await api(demoKey(), 'GET', '/v1/keys');
  await admin.getByRole('button', { name: 'I have kept it' }).click();
  await expect(shown).toHaveCount(0);
  await admin.goto('/admin/customers');
  await expect(admin.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();
  await expect(admin.getByText('Ada Obi').first()).toBeVisible();
  // Shown once: the page read again holds only last 4 characters.
  await admin.goto('/admin/keys');
  await expect(admin.locator('body')).not.toContainText(newKey);
});
