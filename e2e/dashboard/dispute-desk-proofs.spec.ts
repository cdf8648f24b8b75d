import type { Browser, Page } from '@playwright/test';
import { insertServiceDisputeTeam } from '../support/dashboard-accounts';
import { startDemoServer, type DemoServer } from '../support/demo-server';
import { caseInArbitration, signedInAt, uploadPng, type ArbitrationCase, type StoredFile } from './staging';
import { apiAt, DEMO, expect, shot, test, unique } from './support';

/**
 * Issues #26 (8) and #27 (10): the dispute team opens every party's evidence and the proofs of delivery
 * and return, whichever client the case belongs to, including a client made straight through the API
 * (the dashboard holds no key of its). The service's own dispute team (an account with no client) is not
 * something any operation makes, so it is written into the database of a server of this spec's own.
 */
test.describe.configure({ mode: 'serial' });

const ARBITER = { email: `arbiter.${unique()}@escrowdesk.test`, password: `arbiter-${unique()}-pass`, name: 'Service dispute team' };

type Case = ArbitrationCase;

let demo: DemoServer;
let base = '';
let foreign: Case; // a client made through POST /v1/operator/clients, in arbitration
let own: Case; // the demo client's, in arbitration
let stray: StoredFile; // the other client's upload that no case names

const api = <T = any>(key: string, method: 'GET' | 'POST' | 'PATCH', route: string, body?: unknown) => apiAt<T>(base, key, method, route, body);

const signedIn = (browser: Browser, who: { email: string; password: string }) => signedInAt(browser, base, who, /\/dispute-team$/);

/**
 * The case page's preview of a proof has loaded as an image (a failed one turns into a link instead), through a link
 * signed for this viewer that the browser may keep for the minutes it works. Its address, for another viewer to try.
 */
async function expectLoadedImage(page: Page, name: string, file: StoredFile): Promise<string> {
  const img = page.getByRole('img', { name, exact: true });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)), { message: `${name} loads` }).toBeGreaterThan(0);
  const src = await img.getAttribute('src');
  expect(src).toMatch(new RegExp(`^/proofs/${file.id}\\?t=\\d+\\.[\\w-]{43}$`));
  const res = await page.request.get(src!);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('image/png');
  const maxAge = Number(/^private, max-age=(\d+), immutable$/.exec(res.headers()['cache-control'] ?? '')?.[1]);
  expect(maxAge, 'kept for at most the 10 minutes the link works').toBeGreaterThan(0);
  expect(maxAge).toBeLessThanOrEqual(600);
  expect(Buffer.from(await res.body()).equals(file.bytes), `${name} is the uploaded file`).toBe(true);
  return src!;
}

/** The service dispute team's signed link to the other client's proof of delivery. */
let arbiterLink = '';

test.beforeAll(async () => {
  test.setTimeout(240_000);
  demo = await startDemoServer({}, { setup: (query) => insertServiceDisputeTeam(query, ARBITER) });
  base = demo.server.baseUrl;
  const operatorKey = demo.server.operatorKey;
  // A client made through the API: its secret key is in this answer only, never in the dashboard.
  const other = await api<{ secret_key: string }>(operatorKey, 'POST', '/v1/operator/clients', { name: `API-only marketplace ${unique()}`, mode: 'test' });
  foreign = await caseInArbitration(base, other.secret_key);
  stray = await uploadPng(base, other.secret_key, [120, 120, 120], 'unrelated.png');
  own = await caseInArbitration(base, demo.demoSecretKey);
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
  arbiterLink = await expectLoadedImage(team, 'Proof of delivery 1', foreign.delivery);
  await expectLoadedImage(team, 'Proof of return 1', foreign.ret);
  await expectLoadedImage(team, 'evidence.png', foreign.evidence);
  await shot(team, 'dispute-desk-proofs');

  // Only files of the case named: the same client's other upload, or this case's file under another case, are not found.
  expect((await team.request.get(`/proofs/${stray.id}?dispute=${foreign.disputeId}`)).status()).toBe(404);
  expect((await team.request.get(`/proofs/${foreign.delivery.id}?dispute=${own.disputeId}`)).status()).toBe(404);
  expect((await team.request.get(`/proofs/${foreign.delivery.id}`)).status()).toBe(404);
  // A signed link is for its file only, and not to be altered.
  expect((await team.request.get(arbiterLink.replace(foreign.delivery.id, stray.id))).status()).toBe(404);
  expect((await team.request.get(arbiterLink.replace(/t=(\d+)/, (_, s: string) => `t=${Number(s) + 600}`))).status()).toBe(404);
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
  // Another viewer's signed link is no link for this one.
  expect((await team.request.get(arbiterLink)).status()).toBe(404);

  expect((await team.goto(`/dispute-team/${own.disputeId}`))?.status()).toBe(200);
  await expectLoadedImage(team, 'Proof of delivery 1', own.delivery);
  await expectLoadedImage(team, 'Proof of return 1', own.ret);
  await expectLoadedImage(team, 'evidence.png', own.evidence);
});
