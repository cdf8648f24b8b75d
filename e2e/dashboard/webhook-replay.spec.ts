import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { api, DEMO, demoKey, demoUserId, expect, expectToast, horizontalOverflow, seriousAxeViolations, shot, signedInPage, test, unique } from './support';

/**
 * "Replay from…" on the admin's Webhooks page (docs/webhooks.md, Replay), at a phone's width: the admin picks
 * an event, or a date and time in the browser's own time zone, confirms, is told how many events were queued,
 * and the receiver gets the later events again.
 * Other specs share the demo client: only this spec's own endpoint and wallet events are counted.
 */
test.describe.configure({ mode: 'serial' });

async function startReceiver() {
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['escrow-event-id']));
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${unique()}`;
  return { received, url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** An instant as a datetime-local value in Lagos time (the browser's zone in playwright.config.ts), to the minute. */
function lagosMinute(at: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

test('the admin replays the events after one, then those since a date and time, to an endpoint: confirmed, counted in a toast, received again', async ({ browser }) => {
  const receiver = await startReceiver();
  let webhookId = '';
  try {
    const endpoint = await api<{ id: string }>(demoKey(), 'POST', '/v1/webhooks', { url: receiver.url, description: 'replay spec' });
    webhookId = endpoint.id;
    // Three events of this spec's own: the replay starts after the first.
    const ada = await demoUserId('ada.obi');
    const amounts = [1_017, 1_018, 1_019];
    for (const amount of amounts) await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: ada, amount });
    const recent = (await api<{ events: Array<{ id: string; created_at: string; data: { amount?: number } }> }>(demoKey(), 'GET', '/v1/events?type=wallet.funded&sort=DESC&limit=20'))
      .events;
    const funded = amounts.map((amount) => recent.find((e) => e.data.amount === amount)!);
    const [cursor, ...later] = funded;
    await expect.poll(() => funded.every((e) => receiver.received.includes(e.id)), { timeout: 30_000 }).toBe(true);

    const admin = await signedInPage(browser, DEMO.admin);
    await admin.setViewportSize({ width: 390, height: 844 });
    await admin.goto('/admin/webhooks');
    const row = admin.getByTestId('webhook-row').filter({ hasText: receiver.url });
    await row.getByRole('button', { name: `Replay events to ${receiver.url}` }).click();
    const dialog = admin.getByRole('dialog');
    await expect(dialog).toContainText('Send past events to this endpoint again?');
    await dialog.getByRole('radio', { name: 'After an event' }).check();
    await dialog.getByLabel(/Event id/).fill(cursor!.id);
    expect(await horizontalOverflow(admin)).toBe(0);
    expect(await seriousAxeViolations(admin)).toEqual([]);
    await shot(admin, 'admin-webhook-replay-phone');
    await dialog.getByRole('button', { name: 'Replay' }).click();
    await expect(dialog).toBeHidden();
    await expectToast(admin, /\d+ events? queued to be sent again/);

    // Each later event arrives a second time; the cursor itself does not.
    await expect.poll(() => later.every((e) => receiver.received.filter((id) => id === e.id).length === 2), { timeout: 60_000 }).toBe(true);
    expect(receiver.received.filter((id) => id === cursor!.id)).toHaveLength(1);

    // An event the client does not have is refused with the API's message; the dialog stays open.
    await row.getByRole('button', { name: `Replay events to ${receiver.url}` }).click();
    await dialog.getByRole('radio', { name: 'After an event' }).check();
    await dialog.getByLabel(/Event id/).fill(randomUUID());
    await dialog.getByRole('button', { name: 'Replay' }).click();
    await expectToast(admin, /not found/i, 'error');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    // Since a date and time, typed in the browser's zone (Lagos, an hour ahead of UTC), which is to the minute: two
    // more fundings once the client's clock is past the minute of the last one above, then since their minute.
    const lastMinute = Math.floor(Date.parse(later.at(-1)!.created_at) / 60_000);
    await expect
      .poll(async () => Math.floor(Date.parse((await api<{ now: string }>(demoKey(), 'GET', '/v1/test-clock')).now) / 60_000), { timeout: 75_000, intervals: [1000] })
      .toBeGreaterThan(lastMinute);
    const newer = [1_020, 1_021];
    for (const amount of newer) await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: ada, amount });
    const latest = (await api<{ events: Array<{ id: string; created_at: string; data: { amount?: number } }> }>(demoKey(), 'GET', '/v1/events?type=wallet.funded&sort=DESC&limit=20'))
      .events;
    const sinceFunded = newer.map((amount) => latest.find((e) => e.data.amount === amount)!);
    const since = Math.floor(Date.parse(sinceFunded[0]!.created_at) / 60_000) * 60_000;
    const times = (id: string) => receiver.received.filter((x) => x === id).length;
    await expect.poll(() => sinceFunded.every((e) => times(e.id) === 1), { timeout: 30_000 }).toBe(true);
    // And once the replay above has gone out: one replay at a time per endpoint.
    await expect
      .poll(async () => (await api<{ deliveries: unknown[] }>(demoKey(), 'GET', `/v1/webhooks/${webhookId}/deliveries?status=pending&limit=1`)).deliveries.length, { timeout: 60_000 })
      .toBe(0);
    await row.getByRole('button', { name: `Replay events to ${receiver.url}` }).click();
    await dialog.getByRole('radio', { name: 'A date and time' }).check();
    const when = dialog.getByLabel('Date and time to replay from');
    // A day before the page was loaded, in Lagos time, until the admin changes it.
    const shown = Date.parse(`${await when.inputValue()}:00+01:00`);
    expect(Math.abs(shown - (Date.now() - 86_400_000))).toBeLessThan(5 * 60_000);
    await when.fill(lagosMinute(since));
    await shot(admin, 'admin-webhook-replay-since-phone');
    await dialog.getByRole('button', { name: 'Replay' }).click();
    await expect(dialog).toBeHidden();
    await expectToast(admin, /\d+ events? queued to be sent again/);
    // The two since that minute arrive again; the fundings of the minute before do not.
    await expect.poll(() => sinceFunded.every((e) => times(e.id) === 2), { timeout: 60_000 }).toBe(true);
    expect(funded.map((e) => times(e.id))).toEqual([1, 2, 2]);
  } finally {
    if (webhookId) await fetch(`${process.env.DASHBOARD_BASE_URL}/v1/webhooks/${webhookId}`, { method: 'DELETE', headers: { authorization: demoKey() } });
    await receiver.close();
  }
});
