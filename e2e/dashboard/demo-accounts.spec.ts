import type { Browser, Page, Request } from '@playwright/test';
import { startDemoServer, type DemoServer } from '../support/demo-server';
import { caseInArbitration, signedInAt, type ArbitrationCase } from './staging';
import { apiAt, DEMO, expect, expectToast, isServerAction, test, unique } from './support';

/**
 * docs/decisions.md §14: the demo accounts' passwords are published, so the demo dispute team sees and decides
 * only the demo client's disputes, and once the server has a live-mode client no demo account signs in.
 * On a server of this spec's own: it moves the demo client's test clock and makes a live client, which
 * would end the shared server's demo sign-ins for every other spec.
 */
test.describe.configure({ mode: 'serial' });

let demo: DemoServer;
let base = '';
let operatorKey = '';

let own: ArbitrationCase; // the demo client's dispute, in arbitration
let foreign: ArbitrationCase; // another client's, in arbitration
let team: Page;

const api = <T = any>(key: string, method: 'GET' | 'POST' | 'PATCH', route: string, body?: unknown) => apiAt<T>(base, key, method, route, body);

const signedIn = (browser: Browser, who: { email: string; password: string }) => signedInAt(browser, base, who);

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  demo = await startDemoServer();
  base = demo.server.baseUrl;
  operatorKey = demo.server.operatorKey;
  const other = await api<{ secret_key: string }>(operatorKey, 'POST', '/v1/operator/clients', { name: `Real marketplace ${unique()}`, mode: 'test' });
  own = await caseInArbitration(base, demo.demoSecretKey);
  foreign = await caseInArbitration(base, other.secret_key);
  team = await signedIn(browser, DEMO.disputes);
  await team.waitForURL(/\/dispute-team$/);
});

test.afterAll(async () => {
  await demo?.stop();
});

test('the demo dispute team sees and decides only the demo client’s disputes: queue, detail, data, proofs, verdict', async () => {
  test.setTimeout(120_000);
  await expect(team.getByRole('link', { name: own.code })).toBeVisible();
  await expect(team.getByRole('link', { name: foreign.code })).toHaveCount(0);
  const queue = (await (await team.request.get('/data/dispute-team/queue?page=1')).json()) as { disputes: Array<{ id: string }> };
  expect(queue.disputes.map((d) => d.id)).toContain(own.disputeId);
  expect(queue.disputes.map((d) => d.id)).not.toContain(foreign.disputeId);

  const page = await team.goto(`/dispute-team/${foreign.disputeId}`);
  expect(page?.status()).toBe(404);
  expect((await team.request.get(`/data/dispute-team/disputes/${foreign.disputeId}`)).status()).toBe(404);
  expect((await team.request.get(`/data/dispute-team/disputes/${own.disputeId}`)).status()).toBe(200);
  expect((await team.request.get(`/proofs/${foreign.evidence.id}?dispute=${foreign.disputeId}`)).status()).toBe(404);
  expect((await team.request.get(`/proofs/${own.evidence.id}?dispute=${own.disputeId}`)).status()).toBe(200);

  // The verdict form of the demo dispute, its request rewritten in flight to name the other client's dispute.
  let captured: { url: string; headers: Record<string, string>; body: string } | undefined;
  await team.route(
    (url) => url.pathname.startsWith('/dispute-team/'),
    async (route) => {
      const request: Request = route.request();
      if (!isServerAction(request)) return route.continue();
      const body = (request.postData() ?? '').replaceAll(own.disputeId, foreign.disputeId);
      captured = { url: request.url(), headers: request.headers(), body };
      return route.continue({ postData: body });
    },
  );
  await team.goto(`/dispute-team/${own.disputeId}`);
  const verdict = team.getByRole('form', { name: 'Verdict' });
  await verdict.getByLabel("Seller's share (₦)").fill('1000');
  await verdict.getByLabel('Reason').fill('Replayed against another client’s dispute by the demo team.');
  await verdict.getByRole('button', { name: 'Give verdict' }).click();
  await team.getByRole('dialog').getByRole('button', { name: 'Confirm verdict' }).click();
  await expectToast(team, 'Dispute was not found.', 'error');
  await team.unroute(() => true);
  expect(captured?.body).toContain(foreign.disputeId);

  // The same action posted by hand, outside the form.
  const replayed = await team.request.post(captured!.url, {
    headers: { 'next-action': captured!.headers['next-action']!, 'content-type': captured!.headers['content-type'] ?? 'text/plain;charset=UTF-8', accept: 'text/x-component' },
    data: captured!.body,
  });
  expect(await replayed.text()).toContain('Dispute was not found.');
  for (const { disputeId } of [foreign, own]) {
    expect((await api<{ status: string }>(operatorKey, 'GET', `/v1/operator/disputes/${disputeId}`)).status).toBe('ARBITRATION');
  }
});

test('once a live-mode client exists no demo account signs in, sessions end, and the start log says why', async ({ browser }) => {
  test.setTimeout(180_000);
  const admin = await signedIn(browser, DEMO.admin);
  await admin.waitForURL(/\/admin\/overview$/);

  await api(operatorKey, 'POST', '/v1/operator/clients', { name: `Live marketplace ${unique()}`, mode: 'live' });

  expect((await team.request.get('/data/dispute-team/queue?page=1')).status()).toBe(401);
  expect((await admin.request.get('/data/admin-transactions?page=1')).status()).toBe(401);
  for (const who of [DEMO.disputes, DEMO.admin, DEMO.buyer]) {
    const page = await signedIn(browser, who);
    await expect(page.getByText('That email and password do not match an account.')).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.context().close();
  }

  const restarted = await demo.restart();
  base = restarted.baseUrl;
  expect(restarted.output()).toContain('Demo sign-ins are off: this server has a live-mode client');
  const state = (await (await fetch(`${base}/api/health/demo-accounts`)).json()) as { data: { demo_accounts: string } };
  expect(state.data.demo_accounts).toBe('retired');
  const again = await signedIn(browser, DEMO.disputes);
  await expect(again.getByText('That email and password do not match an account.')).toBeVisible();
  expect(new URL(again.url()).pathname).toBe('/login');
});
