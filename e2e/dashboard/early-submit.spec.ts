import type { Browser } from '@playwright/test';
import { api, DEMO, demoKey, demoUserId, expect, expectToast, isServerAction, signedInPage, test, unique } from './support';

/**
 * The demo admin's page, whose scripts are held back (a slow phone's) until `release`: all of them, or with
 * `firstLoadOf`, those asked for after the ones that route's HTML names (its script tags and the client
 * components of its payload). `held` counts the scripts held.
 */
async function adminWithCodeHeld(browser: Browser, { firstLoadOf }: { firstLoadOf?: string } = {}) {
  const admin = await signedInPage(browser, DEMO.admin);
  const html = firstLoadOf === undefined ? '' : await (await admin.request.get(firstLoadOf)).text();
  const firstLoad = new Set(Array.from(html.matchAll(/\/_next\/static\/[^"'\s\\]+\.js/g), (m) => m[0]));
  if (firstLoadOf !== undefined) expect(firstLoad.size).toBeGreaterThan(0);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await admin.route('**/_next/static/**/*.js', async (route) => {
    if (!firstLoad.has(new URL(route.request().url()).pathname)) {
      held += 1;
      await released;
    }
    await route.continue();
  });
  return { admin, release, held: () => held };
}

/**
 * A person quick to press submit while the page's code is still loading (a slow phone) must not lose what
 * they typed to a native form submission, nor see it in the address bar: the submit is held and made once
 * the form is live.
 */
test('a form submitted before the page’s code has loaded is sent once the code arrives', async ({ browser }) => {
  const { admin, release } = await adminWithCodeHeld(browser);
  await admin.goto('/admin/customers', { waitUntil: 'commit' });
  const form = admin.getByRole('form', { name: 'New customer' });
  const email = `early.${unique()}@example.com`;
  await form.getByLabel('First name').fill('Early');
  await form.getByLabel('Last name').fill('Presser');
  await form.getByLabel('Email').fill(email);
  await expect(form).not.toHaveAttribute('data-ready', /.*/);
  await form.getByRole('button', { name: /create|add/i }).click();
  await expect(form).toHaveAttribute('data-pending-submit', '1');
  expect(new URL(admin.url()).search).toBe('');

  // The very form drawn on the server, with what was typed in it, is the one that is sent.
  await form.evaluate((el) => el.setAttribute('data-drawn-by-server', ''));
  release();
  await expectToast(admin, /Early|created|added/i);
  await expect(admin.getByText(email).first()).toBeVisible();
  await expect(admin.locator('form[data-drawn-by-server]')).toHaveCount(1);
  expect(new URL(admin.url()).search).toBe('');
  await admin.context().close();
});

/**
 * The actions on a milestone are drawn on the server and their code loads after hydration; React would drop a
 * click that lands before it has. The click is held and made once the actions are live.
 */
test('a milestone action clicked before its code has loaded opens once the code arrives', async ({ browser }) => {
  const run = unique();
  const tx = await api<{ id: string }>(demoKey(), 'POST', '/v1/transactions', {
    title: `Early click ${run}`,
    description: 'Browser suite: a click before the code',
    buyer_id: await demoUserId('ada.obi'),
    seller_id: await demoUserId('tunde.balogun'),
    milestones: [{ title: 'Crates', description: 'Ten crates', amount: 7_000, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString() }],
  });
  const { admin, release } = await adminWithCodeHeld(browser);
  await admin.goto(`/transactions/${tx.id}`, { waitUntil: 'commit' });
  const fund = admin.getByTestId('milestone-1').getByRole('button', { name: 'Fund milestone' });
  await fund.click();
  await expect(fund).toHaveAttribute('data-pending-click', '1');
  await expect(admin.getByRole('dialog')).toHaveCount(0);

  release();
  const dialog = admin.getByRole('dialog', { name: 'Fund "Crates"?' });
  await expect(dialog).toBeVisible();
  await expect(admin.locator('[data-pending-click]')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Fund milestone' })).toBeFocused();
  await admin.context().close();
});

/**
 * The focus rescue is on as soon as the page is live, before any code loaded after hydration (a milestone's
 * actions) has arrived: an action done before a late rescue loaded would leave focus on <body> for good.
 * A confirmation pressed twice while it is being sent (the buyer's wallet is empty) sends once and keeps focus
 * on its button throughout: the busy button is never disabled. Cancel hands focus back to the opener.
 */
test('the focus rescue is on before the code loaded after hydration, and a confirmation pressed twice keeps focus and sends once', async ({ browser }) => {
  const run = unique();
  const buyer = await api<{ id: string }>(demoKey(), 'POST', '/v1/users', { first_name: 'Rescue', last_name: 'Buyer', email_address: `rescue.${run}@example.com` });
  const tx = await api<{ id: string; milestones: Array<{ id: string }> }>(demoKey(), 'POST', '/v1/transactions', {
    title: `Early focus ${run}`,
    description: 'Browser suite: focus from the first moment the page is live',
    buyer_id: buyer.id,
    seller_id: await demoUserId('tunde.balogun'),
    milestones: [{ title: 'Boxes', description: 'Six boxes', amount: 9_000, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString() }],
  });
  const { admin, release, held } = await adminWithCodeHeld(browser, { firstLoadOf: `/transactions/${tx.id}` });
  // Not until `load`: a script asked for before it (a chunk the page needs at once) holds that back.
  await admin.goto(`/transactions/${tx.id}`, { waitUntil: 'commit' });
  await expect(admin.locator('html[data-focus-rescue="on"]')).toHaveCount(1);
  expect(held()).toBeGreaterThan(0);
  await expect(admin.getByTestId('milestone-1').locator('[data-lazy-part]:not([data-ready])').first()).toBeAttached();
  release();

  await admin.getByTestId('milestone-1').getByRole('button', { name: 'Fund milestone' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Fund "Boxes"?' });
  const pressed = dialog.getByRole('button', { name: 'Fund milestone' });
  await expect(pressed).toBeFocused();
  // Enter twice, as someone impatient would, with the first sending held: the busy button ignores the second.
  let sent = 0;
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  await admin.route('**/transactions/**', async (route) => {
    if (!isServerAction(route.request(), tx.milestones[0]!.id)) return route.continue();
    sent += 1;
    await answered;
    await route.continue();
  });
  await admin.keyboard.press('Enter');
  await expect.poll(() => sent).toBe(1);
  await expect(pressed).toHaveAttribute('aria-busy', 'true');
  await admin.keyboard.press('Enter');
  await expect(pressed).toBeFocused();
  answer();
  await expect(admin.getByTestId('toast-error').first()).toBeVisible();
  expect(sent).toBe(1);
  await expect(pressed).not.toHaveAttribute('aria-busy');
  await expect(pressed).toBeFocused();

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.getByTestId('milestone-1').getByRole('button', { name: 'Fund milestone' })).toBeFocused();
  await admin.context().close();
});
