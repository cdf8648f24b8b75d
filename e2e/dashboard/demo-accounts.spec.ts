import type { Browser, Page, Request } from '@playwright/test';
import { startDemoServer, type DemoServer } from '../support/demo-server';
import { apiAt, DEMO, expect, expectToast, pngImage, test, unique } from './support';

/**
 * Decisions §14: the demo accounts' passwords are published, so the demo dispute team sees and decides
 * only the demo client's disputes, and once the server has a live-mode client no demo account signs in.
 * On a server of this spec's own: it moves the demo client's test clock and makes a live client, which
 * would end the shared server's demo sign-ins for every other spec.
 */
test.describe.configure({ mode: 'serial' });

let demo: DemoServer;
let base = '';
let operatorKey = '';

type Staged = { disputeId: string; code: string; fileId: string };
let own: Staged; // the demo client's dispute, in arbitration
let foreign: Staged; // another client's, in arbitration
let team: Page;

const api = <T = any>(key: string, method: 'GET' | 'POST' | 'PATCH', route: string, body?: unknown) => apiAt<T>(base, key, method, route, body);

/** A dispute of the key's client driven to ARBITRATION, the buyer's evidence carrying an uploaded file. */
async function disputeInArbitration(key: string): Promise<Staged> {
  const person = async (first: string) =>
    api<{ id: string }>(key, 'POST', '/v1/users', { first_name: first, last_name: 'Test', email_address: `${first.toLowerCase()}.${unique()}@example.com` });
  const [buyer, seller] = [await person('Buyer'), await person('Seller')];
  await api(key, 'POST', '/v1/wallets/fund', { user_id: buyer.id, amount: 10_000 });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pngImage([200, 40, 40]))], { type: 'image/png' }), 'evidence.png');
  const upload = await fetch(`${base}/v1/files`, { method: 'POST', headers: { authorization: key }, body: form });
  const file = ((await upload.json()) as { data: { id: string; url: string } }).data;
  const tx = await api<{ milestones: Array<{ id: string }> }>(key, 'POST', '/v1/transactions', {
    title: `Disputed deal ${unique()}`,
    description: 'Demo accounts spec',
    buyer_id: buyer.id,
    seller_id: seller.id,
    milestones: [{ title: 'Only milestone', description: 'Everything', amount: 5_000, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString() }],
  });
  const m = tx.milestones[0]!.id;
  await api(key, 'POST', `/v1/milestones/${m}/fund`, { buyer_id: buyer.id });
  await api(key, 'POST', `/v1/milestones/${m}/deliver`, { seller_id: seller.id, proofs_of_completion: [file.url] });
  await api(key, 'POST', `/v1/milestones/${m}/reject`, { buyer_id: buyer.id, rejection_reason: 'Not as described', proofs_of_return: [file.url] });
  await api(key, 'PATCH', `/v1/milestones/${m}/reject/disapprove`, { seller_id: seller.id });
  const dispute = await api<{ id: string; dispute_code: string }>(key, 'POST', '/v1/dispute/create', {
    description: 'Return refused',
    buyer_id: buyer.id,
    seller_id: seller.id,
    milestone_id: m,
  });
  await api(key, 'PATCH', `/v1/dispute/${dispute.id}/escalate`, { seller_id: seller.id });
  await api(key, 'POST', `/v1/dispute/${dispute.id}/evidence`, { buyer_id: buyer.id, text: 'Photo of the item as it arrived', files: [file.url] });
  await api(key, 'POST', `/v1/dispute/${dispute.id}/evidence`, { seller_id: seller.id, text: 'The courier receipt' });
  await api(key, 'POST', '/v1/test-clock/advance', { days: 10 });
  expect((await api<{ status: string }>(key, 'GET', `/v1/dispute/${dispute.id}`)).status).toBe('ARBITRATION');
  return { disputeId: dispute.id, code: dispute.dispute_code, fileId: file.id };
}

async function signedIn(browser: Browser, who: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: base })).newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return page;
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  demo = await startDemoServer();
  base = demo.server.baseUrl;
  operatorKey = demo.server.operatorKey;
  const other = await api<{ secret_key: string }>(operatorKey, 'POST', '/v1/operator/clients', { name: `Real marketplace ${unique()}`, mode: 'test' });
  own = await disputeInArbitration(demo.demoSecretKey);
  foreign = await disputeInArbitration(other.secret_key);
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
  expect((await team.request.get(`/proofs/${foreign.fileId}?dispute=${foreign.disputeId}`)).status()).toBe(404);
  expect((await team.request.get(`/proofs/${own.fileId}?dispute=${own.disputeId}`)).status()).toBe(200);

  // The verdict form of the demo dispute, its request rewritten in flight to name the other client's dispute.
  let captured: { url: string; headers: Record<string, string>; body: string } | undefined;
  await team.route(
    (url) => url.pathname.startsWith('/dispute-team/'),
    async (route) => {
      const request: Request = route.request();
      if (request.method() !== 'POST' || !request.headers()['next-action']) return route.continue();
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
  await admin.waitForURL(/\/admin\/transactions$/);

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
