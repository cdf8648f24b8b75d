import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { api, DEMO, demoKey, demoReturnRejected, expect, expectToast, shot, signedInPage, test, unique } from './support';

/**
 * The notification bell (a buyer's unread count rises when the seller proposes an amount, and the line
 * leads to the dispute) and the admin's webhooks page (an endpoint on a loopback receiver started here,
 * its delivery log, a resend).
 */
test.describe.configure({ mode: 'serial' });


/** A dispute in mediation between Ada (buyer) and Tunde (seller), set up through the API. */
async function openDispute(): Promise<string> {
  const amount = 25_000;
  const { ada, tunde, milestoneId: m } = await demoReturnRejected({
    title: `Solar inverter ${unique()}`,
    description: 'Browser suite: notifications',
    amount,
    walletFunds: amount * 2,
    commissionPayer: 'BUYER_100',
    milestoneTitle: 'Inverter',
    milestoneDescription: 'Supply and install',
    rejectionReason: 'It trips under load',
    proofOfReturn: 'https://example.com/return.jpg',
  });
  const dispute = await api<{ id: string }>(demoKey(), 'POST', '/v1/dispute/create', {
    description: 'The inverter was sized for the load the buyer gave us.',
    buyer_id: ada,
    seller_id: tunde,
    milestone_id: m,
  });
  return dispute.id;
}

const bell = (page: Page) => page.getByTestId('notification-bell');
const count = (page: Page) => page.getByTestId('notification-count');

async function openBell(page: Page) {
  await bell(page).click();
  await expect(page.getByRole('region', { name: 'Notifications' })).toBeVisible();
}

test('the buyer’s bell counts the seller’s proposal and leads to the dispute', async ({ browser }) => {
  const disputeId = await openDispute();
  const buyer = await signedInPage(browser, DEMO.buyer);
  const seller = await signedInPage(browser, DEMO.seller);

  // The dispute's opening is news to the buyer; opening the bell reads everything it shows.
  await expect(count(buyer)).toHaveText(/^\d+\+?$/);
  await openBell(buyer);
  await expect(buyer.getByTestId('notification').filter({ hasText: /The seller opened dispute/ }).first()).toBeVisible();
  await expect(count(buyer)).toHaveCount(0);
  await buyer.keyboard.press('Escape');

  await seller.goto(`/disputes/${disputeId}`);
  await seller.getByLabel(/Amount you should receive/).fill('15000');
  await seller.getByRole('button', { name: /Propose/ }).click();
  await seller.getByRole('dialog').getByRole('button', { name: 'Send proposal' }).click();
  await expectToast(seller, /amount|propos/i);

  // No reload: the bell polls.
  await expect(count(buyer)).toHaveText(/^[1-9]\d*$/, { timeout: 30_000 });
  await expect(bell(buyer)).toHaveAttribute('aria-label', /Notifications, [1-9]\d* unread/);
  await openBell(buyer);
  const line = buyer.getByTestId('notification').filter({ hasText: 'Seller proposed ₦15,000.00' }).first();
  await expect(line).toBeVisible();
  await expect(line.getByLabel('new')).toBeVisible();
  await shot(buyer, 'buyer-notifications');
  await line.getByRole('link').click();
  await buyer.waitForURL(new RegExp(`/disputes/${disputeId}$`));
  await expect(buyer.getByRole('button', { name: 'Approve amount' })).toBeVisible();
  await expect(count(buyer)).toHaveCount(0);

  // The seller's own move is a line of theirs too, in the first person.
  await openBell(seller);
  await expect(seller.getByTestId('notification').filter({ hasText: 'You proposed ₦15,000.00' }).first()).toBeVisible();
  await buyer.context().close();
  await seller.context().close();
});

test('the admin adds a webhook endpoint, sees its delivery and resends it', async ({ browser }) => {
  const received: Array<{ eventId: string; type: string; signature: string }> = [];
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push({ eventId: String(req.headers['escrow-event-id']), type: String(req.headers['escrow-event-type']), signature: String(req.headers['escrow-signature']) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/${unique()}`;
  let webhookId = '';
  try {
    const admin = await signedInPage(browser, DEMO.admin);
    await admin.getByRole('link', { name: 'Webhooks' }).click();
    await expect(admin.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();

    const form = admin.getByRole('form', { name: 'Add a webhook endpoint' });
    await form.getByLabel('URL').fill('http://example.com/hooks');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(form.getByText(/https/)).toBeVisible();
    await form.getByLabel('URL').fill(url);
    await form.getByLabel('Description (optional)').fill('Browser suite receiver');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await expectToast(admin, /keep the secret/i);
    await expect(admin.getByLabel('Signing secret')).toHaveValue(/^whsec_/);

    const row = admin.getByTestId('webhook-row').filter({ hasText: url });
    await expect(row).toBeVisible();
    const list = await api<{ webhooks: Array<{ id: string; url: string }> }>(demoKey(), 'GET', '/v1/webhooks');
    webhookId = list.webhooks.find((w) => w.url === url)!.id;

    // An event for this endpoint only, through the API; the dispatcher posts it to the receiver.
    const delivery = await api<{ id: string; event_id: string }>(demoKey(), 'POST', `/v1/webhooks/${webhookId}/test`);
    await expect.poll(() => received.filter((r) => r.eventId === delivery.event_id).length, { timeout: 30_000 }).toBe(1);
    expect(received.find((r) => r.eventId === delivery.event_id)?.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    const line = admin.locator(`[data-delivery-id="${delivery.id}"]`);
    await expect(async () => {
      await admin.reload();
      await admin.getByTestId('webhook-row').filter({ hasText: url }).getByRole('button', { name: 'Deliveries' }).click();
      await expect(line.getByText('succeeded')).toBeVisible({ timeout: 3000 });
    }).toPass({ timeout: 30_000 });
    await expect(line).toContainText('webhook.test');
    await expect(line).toContainText('HTTP 200');
    await expect(line.getByTestId('delivery-attempts')).toHaveText('1');
    await admin.getByLabel('Signing secret').count().then((n) => expect(n).toBe(0));
    await shot(admin, 'admin-webhooks');

    await line.getByRole('button', { name: 'Resend' }).click();
    const dialog = admin.getByRole('dialog');
    await expect(dialog).toContainText('Send this webhook.test delivery again?');
    await dialog.getByRole('button', { name: 'Resend now' }).click();
    await expect(dialog).toBeHidden();
    await expectToast(admin, /sent again/i);
    await expect.poll(() => received.filter((r) => r.eventId === delivery.event_id).length, { timeout: 30_000 }).toBe(2);
    await expect(line.getByTestId('delivery-attempts')).toHaveText('2', { timeout: 30_000 });
    await expect(line.getByText('succeeded')).toBeVisible();
    await shot(admin, 'admin-webhook-resent');
    await admin.context().close();
  } finally {
    // Nothing more goes to the receiver once the test is over.
    if (webhookId) await fetch(`${process.env.DASHBOARD_BASE_URL}/v1/webhooks/${webhookId}`, { method: 'DELETE', headers: { authorization: demoKey() } });
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
