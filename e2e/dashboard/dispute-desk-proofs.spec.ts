import type { Browser, Page } from '@playwright/test';
import { insertServiceDisputeTeam } from '../support/dashboard-accounts';
import { startDemoServer, type DemoServer } from '../support/demo-server';
import { apiAt, DEMO, expect, pngImage, shot, test, unique } from './support';

/**
 * Issues #26 (8) and #27 (10): the dispute team opens every party's evidence and the proofs of delivery
 * and return, whichever client the case belongs to, including a client made straight through the API
 * (the dashboard holds no key of its). The service's own dispute team (an account with no client) is not
 * something any operation makes, so it is written into the database of a server of this spec's own.
 */
test.describe.configure({ mode: 'serial' });

const ARBITER = { email: `arbiter.${unique()}@escrowdesk.test`, password: `arbiter-${unique()}-pass`, name: 'Service dispute team' };

type StoredFile = { id: string; url: string; bytes: Buffer };
type Case = { disputeId: string; code: string; delivery: StoredFile; ret: StoredFile; evidence: StoredFile };

let demo: DemoServer;
let base = '';
let foreign: Case; // a client made through POST /v1/operator/clients, in arbitration
let own: Case; // the demo client's, in arbitration
let stray: StoredFile; // the other client's upload that no case names

const api = <T = any>(key: string, method: 'GET' | 'POST' | 'PATCH', route: string, body?: unknown) => apiAt<T>(base, key, method, route, body);

async function uploadPng(key: string, rgb: [number, number, number], filename: string): Promise<StoredFile> {
  const bytes = pngImage(rgb);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), filename);
  const res = await fetch(`${base}/v1/files`, { method: 'POST', headers: { authorization: key }, body: form });
  const body = (await res.json()) as { data: { id: string; url: string } };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { id: body.data.id, url: body.data.url, bytes };
}

/** A dispute of the key's client in ARBITRATION: an uploaded PNG each as proof of delivery, proof of return and the buyer's evidence. */
async function caseInArbitration(key: string): Promise<Case> {
  const person = async (first: string) =>
    api<{ id: string }>(key, 'POST', '/v1/users', { first_name: first, last_name: 'Test', email_address: `${first.toLowerCase()}.${unique()}@example.com` });
  const [buyer, seller] = [await person('Buyer'), await person('Seller')];
  const delivery = await uploadPng(key, [30, 160, 60], 'delivery.png');
  const ret = await uploadPng(key, [40, 70, 200], 'return.png');
  const evidence = await uploadPng(key, [200, 40, 40], 'evidence.png');
  await api(key, 'POST', '/v1/wallets/fund', { user_id: buyer.id, amount: 10_000 });
  const tx = await api<{ milestones: Array<{ id: string }> }>(key, 'POST', '/v1/transactions', {
    title: `Disputed deal ${unique()}`,
    description: 'Dispute desk proofs spec',
    buyer_id: buyer.id,
    seller_id: seller.id,
    milestones: [{ title: 'Only milestone', description: 'Everything', amount: 5_000, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString() }],
  });
  const m = tx.milestones[0]!.id;
  await api(key, 'POST', `/v1/milestones/${m}/fund`, { buyer_id: buyer.id });
  await api(key, 'POST', `/v1/milestones/${m}/deliver`, { seller_id: seller.id, proofs_of_completion: [delivery.url] });
  await api(key, 'POST', `/v1/milestones/${m}/reject`, { buyer_id: buyer.id, rejection_reason: 'Arrived broken', proofs_of_return: [ret.url] });
  await api(key, 'PATCH', `/v1/milestones/${m}/reject/disapprove`, { seller_id: seller.id });
  const dispute = await api<{ id: string; dispute_code: string }>(key, 'POST', '/v1/dispute/create', {
    description: 'Return refused',
    buyer_id: buyer.id,
    seller_id: seller.id,
    milestone_id: m,
  });
  await api(key, 'PATCH', `/v1/dispute/${dispute.id}/escalate`, { seller_id: seller.id });
  await api(key, 'POST', `/v1/dispute/${dispute.id}/evidence`, { buyer_id: buyer.id, text: 'Photo of the item as it arrived', files: [evidence.url] });
  await api(key, 'POST', `/v1/dispute/${dispute.id}/evidence`, { seller_id: seller.id, text: 'It left intact' });
  await api(key, 'POST', '/v1/test-clock/advance', { days: 10 });
  expect((await api<{ status: string }>(key, 'GET', `/v1/dispute/${dispute.id}`)).status).toBe('ARBITRATION');
  return { disputeId: dispute.id, code: dispute.dispute_code, delivery, ret, evidence };
}

async function signedIn(browser: Browser, who: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: base })).newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dispute-team$/);
  return page;
}

/** The case page's preview of a proof has loaded as an image (a failed one turns into a link instead). */
async function expectLoadedImage(page: Page, name: string, file: StoredFile, disputeId: string): Promise<void> {
  const img = page.getByRole('img', { name, exact: true });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)), { message: `${name} loads` }).toBeGreaterThan(0);
  const src = await img.getAttribute('src');
  expect(src).toBe(`/proofs/${file.id}?dispute=${disputeId}`);
  const res = await page.request.get(src!);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('image/png');
  expect(Buffer.from(await res.body()).equals(file.bytes), `${name} is the uploaded file`).toBe(true);
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  demo = await startDemoServer({}, { setup: (query) => insertServiceDisputeTeam(query, ARBITER) });
  base = demo.server.baseUrl;
  const operatorKey = demo.server.operatorKey;
  // A client made through the API: its secret key is in this answer only, never in the dashboard.
  const other = await api<{ secret_key: string }>(operatorKey, 'POST', '/v1/operator/clients', { name: `API-only marketplace ${unique()}`, mode: 'test' });
  foreign = await caseInArbitration(other.secret_key);
  stray = await uploadPng(other.secret_key, [120, 120, 120], 'unrelated.png');
  own = await caseInArbitration(demo.demoSecretKey);
});

test.afterAll(async () => {
  await demo?.stop();
});

test("the service's dispute team sees another client's proofs of delivery and return and its evidence on the case page", async ({ browser }) => {
  test.setTimeout(120_000);
  const team = await signedIn(browser, ARBITER);
  await expect(team.getByRole('link', { name: foreign.code })).toBeVisible();
  const page = await team.goto(`/dispute-team/${foreign.disputeId}`);
  expect(page?.status()).toBe(200);
  await expect(team.getByRole('heading', { name: `Dispute ${foreign.code}` })).toBeVisible();
  const delivery = team.getByRole('region', { name: "Seller's proof of delivery" });
  const ret = team.getByRole('region', { name: "Buyer's proof of return" });
  await expect(delivery.getByRole('img')).toHaveAccessibleName('Proof of delivery 1');
  await expect(ret.getByRole('img')).toHaveAccessibleName('Proof of return 1');
  await expectLoadedImage(team, 'Proof of delivery 1', foreign.delivery, foreign.disputeId);
  await expectLoadedImage(team, 'Proof of return 1', foreign.ret, foreign.disputeId);
  await expectLoadedImage(team, 'evidence.png', foreign.evidence, foreign.disputeId);
  await shot(team, 'dispute-desk-proofs');

  // Only files of the case named: the same client's other upload, or this case's file under another case, are not found.
  expect((await team.request.get(`/proofs/${stray.id}?dispute=${foreign.disputeId}`)).status()).toBe(404);
  expect((await team.request.get(`/proofs/${foreign.delivery.id}?dispute=${own.disputeId}`)).status()).toBe(404);
  expect((await team.request.get(`/proofs/${foreign.delivery.id}`)).status()).toBe(404);
});

test("the demo dispute team gets 404 for the other client's case and each of its proofs, and still sees its own client's", async ({ browser }) => {
  test.setTimeout(120_000);
  const team = await signedIn(browser, DEMO.disputes);
  await expect(team.getByRole('link', { name: own.code })).toBeVisible();
  await expect(team.getByRole('link', { name: foreign.code })).toHaveCount(0);
  expect((await team.goto(`/dispute-team/${foreign.disputeId}`))?.status()).toBe(404);
  for (const file of [foreign.delivery, foreign.ret, foreign.evidence]) {
    expect((await team.request.get(`/proofs/${file.id}?dispute=${foreign.disputeId}`)).status(), file.url).toBe(404);
  }

  expect((await team.goto(`/dispute-team/${own.disputeId}`))?.status()).toBe(200);
  await expectLoadedImage(team, 'Proof of delivery 1', own.delivery, own.disputeId);
  await expectLoadedImage(team, 'Proof of return 1', own.ret, own.disputeId);
  await expectLoadedImage(team, 'evidence.png', own.evidence, own.disputeId);
});
