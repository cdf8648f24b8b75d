import type { Browser, Page, Request } from '@playwright/test';
import { api, DEMO, demoKey, expect, expectToast, isServerAction, shot, signedInPage, test, unique } from './support';

/**
 * Who may see and do what: each party sees only its own buttons (driven by allowed_actions), and neither
 * a page URL nor a hand-made server-action request reaches a transaction the person is not a party of,
 * whether it belongs to another customer of the same client or to another client altogether.
 */
test.describe.configure({ mode: 'serial' });

const operatorKey = () => process.env.DASHBOARD_OPERATOR_KEY as string;

type Tx = { id: string; title: string; milestones: Array<{ id: string; status: string; proofs_of_completion: string[] }> };
const demo: Record<string, Tx> = {};
let strangers: Tx; // Chioma buys from Emeka: same client, neither Ada nor Tunde
let foreign: Tx; // another client altogether
let ada: Page;
let tunde: Page;

async function demoTransaction(title: string): Promise<Tx> {
  const list = await api<{ transactions: Array<{ id: string; title: string }> }>(demoKey(), 'GET', '/v1/transactions?page=1&limit=100');
  const found = list.transactions.find((t) => t.title === title);
  if (!found) throw new Error(`demo transaction "${title}" missing`);
  return api<Tx>(demoKey(), 'GET', `/v1/transactions/${found.id}`);
}

async function userByName(key: string, search: string): Promise<string> {
  const list = await api<{ users: Array<{ id: string }> }>(key, 'GET', `/v1/users?page=1&limit=1&sort=DESC&search=${search}`);
  if (!list.users[0]) throw new Error(`user ${search} missing`);
  return list.users[0].id;
}

const inTwoWeeks = () => new Date(Date.now() + 14 * 86_400_000).toISOString();

async function open(browser: Browser, who: { email: string; password: string }) {
  return signedInPage(browser, who);
}

const milestone = (page: Page, n: number) => page.getByTestId(`milestone-${n}`);
const SELLER_BUTTONS = /^(Deliver with proof|Approve the return|Reject the return|Open a dispute)$/;
const BUYER_BUTTONS = /^(Accept delivery|Reject delivery|Fund milestone)$/;

test.beforeAll(async ({ browser }) => {
  for (const title of ['Shop website redesign', 'Solar panels for Kaduna farm', 'Ankara fabric order', 'Palm oil consignment']) {
    demo[title] = await demoTransaction(title);
  }
  const chioma = await userByName(demoKey(), 'chioma');
  const emeka = await userByName(demoKey(), 'emeka');
  const created = await api<Tx>(demoKey(), 'POST', '/v1/transactions', {
    title: `Strangers' deal ${unique()}`,
    description: 'Neither Ada nor Tunde is a party',
    buyer_id: chioma,
    seller_id: emeka,
    milestones: [{ title: 'Crates of tomatoes', description: '10 crates', amount: 10_000, due_date: inTwoWeeks() }],
  });
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: chioma, amount: 20_000 });
  const m = created.milestones[0]!.id;
  await api(demoKey(), 'POST', `/v1/milestones/${m}/fund`, { buyer_id: chioma });
  await api(demoKey(), 'POST', `/v1/milestones/${m}/deliver`, { seller_id: emeka, proofs_of_completion: ['https://example.com/waybill.pdf'] });
  strangers = await api<Tx>(demoKey(), 'GET', `/v1/transactions/${created.id}`);

  const other = await api<{ secret_key: string }>(operatorKey(), 'POST', '/v1/operator/clients', { name: `Other marketplace ${unique()}` });
  const buyer = await api<{ id: string }>(other.secret_key, 'POST', '/v1/users', { first_name: 'Ada', last_name: 'Elsewhere', email_address: `ada.${unique()}@other.example` });
  const seller = await api<{ id: string }>(other.secret_key, 'POST', '/v1/users', { first_name: 'Tunde', last_name: 'Elsewhere', email_address: `tunde.${unique()}@other.example` });
  foreign = await api<Tx>(other.secret_key, 'POST', '/v1/transactions', {
    title: 'Another client’s deal',
    description: 'Invisible to Demo Marketplace',
    buyer_id: buyer.id,
    seller_id: seller.id,
    milestones: [{ title: 'Only milestone', description: 'x', amount: 5_000, due_date: inTwoWeeks() }],
  });

  ada = await open(browser, DEMO.buyer);
  tunde = await open(browser, DEMO.seller);
});

test('a buyer never sees seller buttons and a seller never sees buyer buttons', async () => {
  const website = `/transactions/${demo['Shop website redesign']!.id}`;
  await tunde.goto(website);
  await expect(milestone(tunde, 1).getByRole('button', { name: 'Deliver with proof' })).toBeVisible();
  await expect(tunde.getByRole('button', { name: BUYER_BUTTONS })).toHaveCount(0);
  await ada.goto(website);
  await expect(milestone(ada, 1).getByText('Waiting for the seller to deliver.')).toBeVisible();
  await expect(ada.getByRole('button', { name: SELLER_BUTTONS })).toHaveCount(0);

  const solar = `/transactions/${demo['Solar panels for Kaduna farm']!.id}`;
  await ada.goto(solar);
  await expect(milestone(ada, 2).getByRole('button', { name: 'Accept delivery' })).toBeVisible();
  await expect(milestone(ada, 2).getByRole('button', { name: 'Reject delivery' })).toBeVisible();
  await expect(ada.getByRole('button', { name: SELLER_BUTTONS })).toHaveCount(0);
  await tunde.goto(solar);
  await expect(milestone(tunde, 2).getByText('Waiting for the buyer to accept or reject the delivery.')).toBeVisible();
  await expect(tunde.getByRole('button', { name: BUYER_BUTTONS })).toHaveCount(0);

  const fabric = `/transactions/${demo['Ankara fabric order']!.id}`;
  await tunde.goto(fabric);
  await expect(milestone(tunde, 1).getByRole('button', { name: 'Approve the return' })).toBeVisible();
  await expect(milestone(tunde, 1).getByRole('button', { name: 'Reject the return' })).toBeVisible();
  await shot(tunde, 'seller-return-decision');
  await ada.goto(fabric);
  await expect(ada.getByRole('button', { name: SELLER_BUTTONS })).toHaveCount(0);
  await expect(ada.getByRole('button', { name: BUYER_BUTTONS })).toHaveCount(0);

  await ada.goto(`/transactions/${demo['Palm oil consignment']!.id}`);
  await ada.getByRole('link', { name: 'Open the dispute' }).click();
  await ada.waitForURL(/\/disputes\//);
  const disputeUrl = new URL(ada.url()).pathname;
  await expect(ada.getByRole('button', { name: 'Approve amount' })).toBeVisible();
  await expect(ada.getByRole('button', { name: 'Reject amount' })).toBeVisible();
  // The buyer's only amount field is its counter-offer, never the seller's proposal.
  await expect(ada.getByRole('spinbutton', { name: /you should receive/ })).toHaveCount(0);
  await expect(ada.getByRole('spinbutton', { name: 'Amount you offer to pay the seller (₦)' })).toBeVisible();
  await shot(ada, 'buyer-dispute-proposal');
  await tunde.goto(disputeUrl);
  await expect(tunde.getByRole('spinbutton', { name: /Revise the amount/ })).toBeVisible();
  await expect(tunde.getByRole('button', { name: /Approve amount|Reject amount|Make counter-offer/ })).toHaveCount(0);
});

test('a customer cannot open another customer’s or another client’s transaction by URL, nor its data or proofs', async () => {
  for (const id of [strangers.id, foreign.id]) {
    const response = await ada.goto(`/transactions/${id}`);
    expect(response?.status()).toBe(404);
    await expect(ada.getByRole('heading', { name: 'Not found' })).toBeVisible();
    expect((await ada.request.get(`/data/transactions/${id}`)).status()).toBe(404);
  }
  await shot(ada, 'not-found');
  const strangerMilestone = strangers.milestones[0]!.id;
  const proofId = /\/v1\/files\/([0-9a-f-]{36})/.exec(demo['Solar panels for Kaduna farm']!.milestones[0]!.proofs_of_completion[0]!)![1];
  // Ada may see the demo proof on her own milestone, but not by naming someone else's milestone.
  expect((await ada.request.get(`/proofs/${proofId}?milestone=${demo['Solar panels for Kaduna farm']!.milestones[0]!.id}`)).status()).toBe(200);
  expect((await ada.request.get(`/proofs/${proofId}?milestone=${strangerMilestone}`)).status()).toBe(404);
  expect((await ada.request.get(`/proofs/${proofId}`)).status()).toBe(404);
  // A customer is not an admin: admin pages send it back to its own list, admin data is refused.
  await tunde.goto('/admin/customers');
  await expect(tunde).toHaveURL(/\/transactions$/);
  expect((await tunde.request.get('/data/customers')).status()).toBe(403);
  await tunde.goto('/admin/webhooks');
  await expect(tunde).toHaveURL(/\/transactions$/);
  expect((await tunde.request.get('/data/webhooks')).status()).toBe(403);
  // Signed out: no data at all.
  expect((await ada.context().request.fetch(`/data/transactions/${demo['Solar panels for Kaduna farm']!.id}`, { headers: { cookie: '' } })).status()).toBe(401);
});

test('a customer’s transaction page shows its proofs through links signed for that customer alone', async () => {
  const solar = demo['Solar panels for Kaduna farm']!;
  await ada.goto(`/transactions/${solar.id}`);
  const proof = ada.getByRole('img', { name: 'Proof of delivery 1' }).first();
  await expect.poll(() => proof.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)), { message: 'the proof image loads' }).toBeGreaterThan(0);
  const adasLink = (await proof.getAttribute('src'))!;
  expect(adasLink).toMatch(/^\/proofs\/[0-9a-f-]{36}\?t=\d+\.[\w-]{43}$/);
  const served = await ada.request.get(adasLink);
  expect(served.status()).toBe(200);
  expect(served.headers()['cache-control']).toMatch(/^private, max-age=\d+, immutable$/);
  // Tunde is the seller of this very deal: still, Ada's link is hers, and a forged expiry is no link at all.
  expect((await tunde.request.get(adasLink)).status()).toBe(404);
  expect((await ada.request.get(adasLink.replace(/t=(\d+)/, (_, s: string) => `t=${Number(s) + 60}`))).status()).toBe(404);
});

test('a customer cannot call an action for a transaction it is not a party of, nor act as the other party', async ({ browser }) => {
  const solar = demo['Solar panels for Kaduna farm']!;
  const own = solar.milestones[1]!.id;
  const theirs = strangers.milestones[0]!.id;
  let captured: { url: string; headers: Record<string, string>; body: string } | undefined;
  // Ada clicks her own "Accept delivery"; the request leaves the browser naming the strangers' milestone.
  await ada.route(
    (url) => url.pathname.startsWith('/transactions/'),
    async (route) => {
      const request: Request = route.request();
      if (!isServerAction(request)) return route.continue();
      const body = request.postData() ?? '';
      captured = { url: request.url(), headers: request.headers(), body };
      expect(body).toContain(own);
      return route.continue({ postData: body.replaceAll(own, theirs) });
    },
  );
  await ada.goto(`/transactions/${solar.id}`);
  await milestone(ada, 2).getByRole('button', { name: 'Accept delivery' }).click();
  await ada.getByRole('dialog').getByRole('button', { name: 'Accept and release' }).click();
  await expectToast(ada, 'Milestone was not found.', 'error');
  await ada.unroute(() => true);
  expect(captured).toBeDefined();
  const after = await api<Tx>(demoKey(), 'GET', `/v1/transactions/${strangers.id}`);
  expect(after.milestones[0]!.status).toBe('UNDER_INSPECTION');

  // The same action posted by hand: by the seller (not the buyer), and by nobody signed in.
  const replay = (page: Page) =>
    page.request.post(captured!.url, {
      headers: { 'next-action': captured!.headers['next-action']!, 'content-type': captured!.headers['content-type'] ?? 'text/plain;charset=UTF-8', accept: 'text/x-component' },
      data: captured!.body,
    });
  expect(await (await replay(tunde)).text()).toContain('Only the buyer accepts a delivery.');
  const stranger = await (await browser.newContext({ baseURL: process.env.DASHBOARD_BASE_URL })).newPage();
  expect(await (await replay(stranger)).text()).toContain('Your session has ended');
  const solarAfter = await api<Tx>(demoKey(), 'GET', `/v1/transactions/${solar.id}`);
  expect(solarAfter.milestones[1]!.status).toBe('UNDER_INSPECTION');
});
