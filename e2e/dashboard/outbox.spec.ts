import type { Page } from '@playwright/test';
import { api, DEMO, demoKey, demoReturnRejected, expect, expectToast, horizontalOverflow, seriousAxeViolations, shot, signIn, test, unique } from './support';

/**
 * The admin's Outbox (docs/decisions.md §15) on a phone: the suite's server has no SMTP_URL, so the buyer's
 * "the seller proposed ₦X" is kept there, readable in full, and can be queued again with Resend.
 */
test('the Outbox lists the proposal email at 390 px, its text readable on expand, with no serious axe violation; only the admin resends', async ({ browser }) => {
  const title = `Outbox ${unique()}`;
  const { ada, tunde, milestoneId: m } = await demoReturnRejected({
    title,
    description: 'Browser suite: the outbox',
    amount: 20_000,
    walletFunds: 20_000,
    milestoneTitle: title,
    rejectionReason: 'Half of it was missing',
  });
  const dispute = await api<{ id: string }>(demoKey(), 'POST', '/v1/dispute/create', { description: 'Everything was delivered', buyer_id: ada, seller_id: tunde, milestone_id: m });
  await api(demoKey(), 'PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { dispute_amount: 12_345, seller_id: tunde });

  const page = await (await browser.newContext({ baseURL: process.env.DASHBOARD_BASE_URL, viewport: { width: 390, height: 844 } })).newPage();
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await page.goto('/admin/outbox');
  await expect(page.getByRole('heading', { name: 'Outbox', level: 1 })).toBeVisible();

  const subject = `The seller proposed ₦12,345.00 for “${title}”`;
  const row = page.getByTestId('email-row').filter({ hasText: subject });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('ada.obi@demo.escrowdesk.ng');
  await expect(row.getByText('kept', { exact: true })).toBeVisible();
  await row.getByText('Read the email').click();
  const body = row.locator('pre');
  await expect(body).toBeVisible();
  await expect(body).toContainText('the seller proposed to settle at ₦12,345.00');
  // Ada signs in to the dashboard, so the email links to the dispute's page there.
  await expect(body).toContainText(`/disputes/${dispute.id}`);

  await page.waitForLoadState('networkidle').catch(() => undefined);
  expect(await horizontalOverflow(page)).toBe(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await shot(page, 'phone-admin-outbox');

  // Resend is the admin's explicit choice: the kept email is queued (this server sends nothing without SMTP_URL).
  const proposal = (await outbox()).find((e) => e.subject === subject)!;
  let captured: { url: string; headers: Record<string, string>; body: string } | undefined;
  await page.route(
    (url) => url.pathname === '/admin/outbox',
    async (route) => {
      const request = route.request();
      if (request.method() === 'POST' && request.headers()['next-action']) captured = { url: request.url(), headers: request.headers(), body: request.postData() ?? '' };
      return route.continue();
    },
  );
  await row.getByRole('button', { name: `Resend “${subject}”` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Resend now' }).click();
  await expectToast(page, 'Email queued to be sent again');
  await expect(row.getByText('pending', { exact: true })).toBeVisible();

  // The same action posted by hand for another kept email, by a customer and by nobody signed in: refused, nothing queued.
  expect(captured?.body).toContain(proposal.id);
  const other = (await outbox()).find((e) => e.status === 'kept' && e.subject.includes(title))!;
  const replay = async (as: Page) =>
    (
      await as.request.post(captured!.url, {
        headers: { 'next-action': captured!.headers['next-action']!, 'content-type': captured!.headers['content-type'] ?? 'text/plain;charset=UTF-8', accept: 'text/x-component' },
        data: captured!.body.replaceAll(proposal.id, other.id),
      })
    ).text();
  const customer = await (await browser.newContext({ baseURL: process.env.DASHBOARD_BASE_URL })).newPage();
  await signIn(customer, DEMO.buyer.email, DEMO.buyer.password);
  expect(await replay(customer)).toContain('Only an admin of the marketplace');
  const stranger = await (await browser.newContext({ baseURL: process.env.DASHBOARD_BASE_URL })).newPage();
  expect(await replay(stranger)).toContain('Your session has ended');
  expect((await outbox()).find((e) => e.id === other.id)!.status).toBe('kept');
});

const outbox = async () => (await api<{ emails: Array<{ id: string; subject: string; status: string }> }>(demoKey(), 'GET', '/v1/emails?limit=100')).emails;

test('an invitation is in the outbox, its one-time link stored encrypted and never shown there', async ({ page }) => {
  const email = `invitee.${unique()}@e2e.escrowdesk.ng`;
  const user = await api<{ id: string }>(demoKey(), 'POST', '/v1/users', { first_name: 'Ngozi', last_name: 'Invitee', email_address: email });
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await page.goto(`/admin/customers/${user.id}`);
  await page.getByRole('button', { name: 'Invite to the dashboard' }).click();
  await expect(page.getByTestId('invite-link')).toHaveValue(/\/invite\//);
  const path = new URL(await page.getByTestId('invite-link').inputValue(), process.env.DASHBOARD_BASE_URL).pathname;

  await page.goto('/admin/outbox');
  const row = page.getByTestId('email-row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Your invitation to Escrow Desk');
  await row.getByText('Read the email').click();
  await expect(row.locator('pre')).toContainText('holds a one-time link for its recipient alone');
  await expect(row).not.toContainText(path);
  const listed = (await api<{ emails: Array<{ to: { email: string }; text: string; html: string }> }>(demoKey(), 'GET', '/v1/emails?limit=100')).emails.find((e) => e.to.email === email);
  expect(JSON.stringify(listed)).not.toContain(path.split('/').pop()!);
});
