import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { api, DEMO, demoKey, demoUserId, expect, expectToast, shot, signedInPage, test, unique } from './support';

/**
 * The admin's webhook tools (issue #27 item 10): a test event sent from the page reaches a receiver on
 * loopback and its payload can be read in the dashboard; the secret is rotated (shown once, and the next
 * delivery is signed with it); the endpoint is deleted (nothing more reaches it). And the bell's
 * "Mark all read". Other specs share the demo client: only this spec's own endpoint and events are counted.
 */
test.describe.configure({ mode: 'serial' });

type Received = { eventId: string; type: string; signature: string; raw: string };

async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        eventId: String(req.headers['escrow-event-id']),
        type: String(req.headers['escrow-event-type']),
        signature: String(req.headers['escrow-signature']),
        raw: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${unique()}`;
  return { received, url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Whether one of the header's v1= signatures is this secret's HMAC-SHA256 of "t.body" (docs/decisions.md §9). */
function signedWith(header: string, raw: string, secret: string): boolean {
  const parts = header.split(',').map((p) => p.split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const expected = createHmac('sha256', secret).update(`${t}.${raw}`, 'utf8').digest('hex');
  return parts.some(([k, v]) => k === 'v1' && v === expected);
}

const deleteEndpoint = (id: string) => fetch(`${process.env.DASHBOARD_BASE_URL}/v1/webhooks/${id}`, { method: 'DELETE', headers: { authorization: demoKey() } });

async function addEndpoint(admin: Page, url: string): Promise<{ id: string; secret: string }> {
  const form = admin.getByRole('form', { name: 'Add a webhook endpoint' });
  await form.getByLabel('URL').fill(url);
  await form.getByRole('button', { name: 'Add endpoint' }).click();
  await expectToast(admin, /keep the secret/i);
  const secret = await admin.getByLabel('Signing secret', { exact: true }).inputValue();
  expect(secret).toMatch(/^whsec_/);
  await admin.getByRole('button', { name: 'I have kept it' }).click();
  const list = await api<{ webhooks: Array<{ id: string; url: string }> }>(demoKey(), 'GET', '/v1/webhooks');
  return { id: list.webhooks.find((w) => w.url === url)!.id, secret };
}

test('the admin sends a test event, reads its payload, rotates the secret and deletes the endpoint', async ({ browser }) => {
  const receiver = await startReceiver();
  let webhookId = '';
  try {
    const admin = await signedInPage(browser, DEMO.admin);
    await admin.goto('/admin/webhooks');
    const added = await addEndpoint(admin, receiver.url);
    webhookId = added.id;
    const row = admin.getByTestId('webhook-row').filter({ hasText: receiver.url });

    // Send test event: the delivery shows in the log and arrives at the receiver, signed with the secret.
    await row.getByRole('button', { name: /Send a test event/ }).click();
    await expectToast(admin, /test event/i);
    // The endpoint gets every event of the demo client, which other specs share: only webhook.test ones are this spec's.
    const tests = () => receiver.received.filter((r) => r.type === 'webhook.test');
    await expect.poll(() => tests().length, { timeout: 30_000 }).toBe(1);
    const first = tests()[0]!;
    expect(signedWith(first.signature, first.raw, added.secret)).toBe(true);
    const deliveries = admin.getByRole('table', { name: `Deliveries to ${receiver.url}` });
    const line = deliveries.getByTestId('delivery-row').filter({ hasText: 'webhook.test' }).first();
    await expect(line).toContainText('webhook.test');
    await expect(line.getByText('succeeded')).toBeVisible({ timeout: 30_000 });

    // The payload viewer shows exactly the JSON the receiver got.
    await line.getByRole('button', { name: /Payload/ }).click();
    const dialog = admin.getByRole('dialog');
    await expect(dialog.getByTestId('delivery-payload')).toBeVisible();
    const shown = JSON.parse((await dialog.getByTestId('delivery-payload').textContent()) ?? '');
    expect(shown).toEqual(JSON.parse(first.raw));
    expect(JSON.stringify(shown)).toBe(first.raw);
    expect(shown.id).toBe(first.eventId);
    await shot(admin, 'admin-webhook-payload');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();

    // Rotate secret, behind a confirmation: the new secret is shown once.
    await row.getByRole('button', { name: /Rotate the secret of/ }).click();
    await expect(dialog).toContainText("Rotate this endpoint's signing secret?");
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    await expect(dialog).toBeHidden();
    await expectToast(admin, /rotated/i);
    const newSecret = await admin.getByLabel('New signing secret').inputValue();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(added.secret);
    await expect(row).toContainText(/rotating until/);
    await admin.getByRole('button', { name: 'I have kept it' }).click();
    await expect(admin.getByLabel('New signing secret')).toHaveCount(0);
    await admin.reload();
    await expect(admin.getByLabel('New signing secret')).toHaveCount(0);

    // The next delivery is signed with the new secret (and, for the 24 hours of the overlap, the previous one too).
    await row.getByRole('button', { name: /Send a test event/ }).click();
    await expectToast(admin, /test event/i);
    await expect.poll(() => tests().length, { timeout: 30_000 }).toBe(2);
    const second = tests()[1]!;
    expect(signedWith(second.signature, second.raw, newSecret)).toBe(true);
    expect(signedWith(second.signature, second.raw, `whsec_${'0'.repeat(48)}`)).toBe(false);
    expect(second.signature.split(',').filter((p) => p.startsWith('v1=')).length).toBe(2);

    // Delete, behind a confirmation: the endpoint is disabled and nothing more reaches the receiver.
    await row.getByRole('button', { name: /Delete the endpoint/ }).click();
    await expect(dialog).toContainText('Delete this webhook endpoint?');
    await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
    await expect(dialog).toBeHidden();
    await expectToast(admin, /deleted/i);
    await expect(row.getByText('disabled')).toBeVisible();
    await expect(row.getByRole('button', { name: /Send a test event/ })).toHaveCount(0);
    const refused = await fetch(`${process.env.DASHBOARD_BASE_URL}/v1/webhooks/${webhookId}/test`, { method: 'POST', headers: { authorization: demoKey() } });
    expect(refused.ok).toBe(false);
    // The client's other events are no longer sent here either: a deal made now reaches an endpoint still enabled,
    // and not this one.
    const sentBefore = receiver.received.length;
    const control = await startReceiver();
    const controlId = (await api<{ id: string }>(demoKey(), 'POST', '/v1/webhooks', { url: control.url })).id;
    try {
      const [ada, tunde] = await Promise.all([demoUserId('ada.obi'), demoUserId('tunde.balogun')]);
      const deal = await api<{ id: string }>(demoKey(), 'POST', '/v1/transactions', {
        title: `After the delete ${unique()}`,
        description: 'An event for the endpoints still enabled',
        buyer_id: ada,
        seller_id: tunde,
        milestones: [{ title: 'Only milestone', description: 'Everything', amount: 1_000, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString() }],
      });
      await expect.poll(() => control.received.some((r) => r.type === 'transaction.created' && r.raw.includes(deal.id)), { timeout: 30_000 }).toBe(true);
      expect(receiver.received.length).toBe(sentBefore);
    } finally {
      await deleteEndpoint(controlId);
      await control.close();
    }
    const list = await api<{ webhooks: Array<{ id: string; enabled: boolean }> }>(demoKey(), 'GET', '/v1/webhooks');
    expect(list.webhooks.find((w) => w.id === webhookId)?.enabled).toBe(false);
    webhookId = '';

    // Each step is in the audit log, and no secret is.
    await admin.goto('/admin/audit');
    for (const action of ['webhook_test_sent', 'webhook_secret_rotated', 'webhook_deleted']) {
      await expect(admin.locator(`[data-testid="audit-row"][data-action="${action}"]`).first()).toBeVisible();
    }
    expect(await admin.content()).not.toContain(newSecret);
    await admin.context().close();
  } finally {
    if (webhookId) await deleteEndpoint(webhookId);
    await receiver.close();
  }
});

test('Mark all read empties the bell, also of what came after it was opened, and it stays empty', async ({ browser }) => {
  const receiver = await startReceiver();
  const created = await api<{ id: string }>(demoKey(), 'POST', '/v1/webhooks', { url: receiver.url, description: 'Bell events' });
  try {
    // A few events of the client (test events of this spec's own endpoint): unread for the admin.
    for (let i = 0; i < 3; i++) await api(demoKey(), 'POST', `/v1/webhooks/${created.id}/test`);
    const admin = await signedInPage(browser, DEMO.admin);
    const count = admin.getByTestId('notification-count');
    await expect(count).toHaveText(/^[1-9]\d*\+?$/, { timeout: 30_000 });

    await admin.getByTestId('notification-bell').click();
    const panel = admin.getByRole('region', { name: 'Notifications' });
    await expect(panel).toBeVisible();
    // Opening the bell reads what it shows (notifications-webhooks.spec.ts).
    await expect(count).toHaveCount(0);
    // More news while the bell is open: not on screen yet, counted by the poll.
    for (let i = 0; i < 2; i++) await api(demoKey(), 'POST', `/v1/webhooks/${created.id}/test`);
    const last = await api<{ event_id: string }>(demoKey(), 'POST', `/v1/webhooks/${created.id}/test`);
    await expect(count).toHaveText(/^[1-9]\d*\+?$/, { timeout: 30_000 });
    await expect(panel.getByLabel('new').first()).toBeVisible();

    await panel.getByRole('button', { name: 'Mark all read' }).click();
    await expect(count).toHaveCount(0);
    await expect(panel.getByLabel('new')).toHaveCount(0);
    await expect(admin.getByTestId('notification-bell')).toHaveAttribute('aria-label', 'Notifications');

    // After a reload: still nothing unread up to this spec's last event. Only what other specs recorded
    // since (they share the demo client) may count.
    await admin.reload();
    await expect(admin.getByTestId('notification-bell')).toBeVisible();
    await admin.waitForLoadState('networkidle').catch(() => undefined);
    const label = (await admin.getByTestId('notification-bell').getAttribute('aria-label')) ?? '';
    const unread = Number(/(\d+) unread/.exec(label)?.[1] ?? 0);
    const since = await api<{ events: unknown[] }>(demoKey(), 'GET', `/v1/events?after=${last.event_id}&limit=100`);
    expect(unread).toBeLessThanOrEqual(since.events.length);
    if (since.events.length === 0) await expect(count).toHaveCount(0);
    await admin.context().close();
  } finally {
    await deleteEndpoint(created.id);
    await receiver.close();
  }
});
