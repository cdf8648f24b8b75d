import type { Browser, Page } from '@playwright/test';
import { acceptInviteAndSignIn, caseInArbitration } from './staging';
import { api, DEMO, demoKey, demoReturnRejected, expect, horizontalOverflow, seriousAxeViolations, shot, signedInPage, test, unique } from './support';

/**
 * Every page of the dashboard, in every role, at 1280 px and at a 390 px phone width: no serious or critical
 * axe-core violation, nothing wider than the phone, and a screenshot of each (e2e/.artifacts/screenshots/every-page).
 * The case before the dispute team belongs to a client of its own, whose test clock it moves (never the demo's).
 */

const WIDTHS = [
  { name: 'wide', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

type Visit = { name: string; path: string };

async function checkEveryPage(page: Page, role: string, visits: Visit[]): Promise<void> {
  const problems: string[] = [];
  for (const visit of visits) {
    await page.setViewportSize(WIDTHS[0]);
    const response = await page.goto(visit.path);
    expect(response?.status(), `${role} ${visit.path}`).toBeLessThan(500);
    await expect(page.locator('h1').first()).toBeVisible();
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await shot(page, `every-page/${role}-${visit.name}-${size.name}`);
      for (const violation of await seriousAxeViolations(page)) problems.push(`${role} ${visit.path} at ${size.width} px: ${violation}`);
      const overflow = await horizontalOverflow(page);
      if (overflow > 0) problems.push(`${role} ${visit.path} at ${size.width} px: ${overflow} px wider than the window`);
    }
  }
  expect(problems).toEqual([]);
}

async function operatorPage(browser: Browser): Promise<Page> {
  const base = process.env.DASHBOARD_BASE_URL!;
  const email = `every.page.operator.${unique()}@example.com`;
  const made = await fetch(`${base}/api/operators`, {
    method: 'POST',
    headers: { authorization: process.env.DASHBOARD_OPERATOR_KEY!, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  const link = ((await made.json()) as { data: { sign_in_url: string } }).data.sign_in_url;
  return acceptInviteAndSignIn(browser, { base, link, email, password: 'operator-password-1', home: /\/operator\/clients$/ });
}

// The tours are independent: the two workers share them (each stages its own deal and case first).
test.describe.configure({ mode: 'parallel' });

let transactionId = '';
let disputeId = '';
let arbitrationId = '';
let adaId = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const staged = await demoReturnRejected({ title: `Every page ${unique()}`, description: 'A deal in dispute, for the page tour', amount: 30_000, walletFunds: 40_000, rejectionReason: 'Scratched on arrival' });
  transactionId = staged.transactionId;
  adaId = staged.ada;
  disputeId = (await api<{ id: string }>(demoKey(), 'POST', '/v1/dispute/create', { description: 'The return was refused', buyer_id: staged.ada, seller_id: staged.tunde, milestone_id: staged.milestoneId })).id;
  await api(demoKey(), 'PATCH', `/v1/dispute/${disputeId}/add-dispute-amount`, { seller_id: staged.tunde, dispute_amount: 20_000 });
  const sandbox = await api<{ secret_key: string }>(process.env.DASHBOARD_OPERATOR_KEY!, 'POST', '/v1/operator/clients', { name: `Every page ${unique()}`, mode: 'test' });
  arbitrationId = (await caseInArbitration(process.env.DASHBOARD_BASE_URL!, sandbox.secret_key)).disputeId;
});

test('signed out: sign-in, a dead invite link, the API reference and a page that does not exist', async ({ page }) => {
  // The API reference is the largest page axe reads and screenshots: on a busy machine it alone takes minutes.
  test.setTimeout(420_000);
  await checkEveryPage(page, 'visitor', [
    { name: 'login', path: '/login' },
    { name: 'invite-expired', path: '/invite/not-a-real-invite-token-000000' },
    { name: 'docs', path: '/docs' },
    { name: 'not-found', path: '/no-such-page' },
  ]);
});

// Each tour gets minutes: on a busy machine (CI runs two browsers beside the server) a page's two screenshots
// and two axe runs take tens of seconds.
test('the client admin’s money pages', async ({ browser }) => {
  test.setTimeout(420_000);
  const admin = await signedInPage(browser, DEMO.admin);
  await checkEveryPage(admin, 'admin', [
    { name: 'overview', path: '/admin/overview' },
    { name: 'transactions', path: '/admin/transactions' },
    { name: 'new-transaction', path: '/admin/transactions/new' },
    { name: 'transaction', path: `/transactions/${transactionId}` },
    { name: 'dispute', path: `/disputes/${disputeId}` },
    { name: 'customers', path: '/admin/customers' },
    { name: 'customer', path: `/admin/customers/${adaId}` },
    { name: 'bank-accounts', path: '/admin/bank-accounts' },
    { name: 'payouts', path: '/admin/payouts' },
  ]);
});

test('the client admin’s settings pages', async ({ browser }) => {
  test.setTimeout(420_000);
  const admin = await signedInPage(browser, DEMO.admin);
  await checkEveryPage(admin, 'admin', [
    { name: 'webhooks', path: '/admin/webhooks' },
    { name: 'keys', path: '/admin/keys' },
    { name: 'team', path: '/admin/team' },
    { name: 'outbox', path: '/admin/outbox' },
    { name: 'sandbox', path: '/admin/sandbox' },
    { name: 'audit', path: '/admin/audit' },
    { name: 'not-found', path: '/transactions/00000000-0000-4000-8000-000000000000' },
  ]);
});

test('the buyer’s and the seller’s pages', async ({ browser }) => {
  test.setTimeout(420_000);
  for (const [role, who] of [['buyer', DEMO.buyer], ['seller', DEMO.seller]] as const) {
    const page = await signedInPage(browser, who);
    await checkEveryPage(page, role, [
      { name: 'transactions', path: '/transactions' },
      { name: 'transaction', path: `/transactions/${transactionId}` },
      { name: 'dispute', path: `/disputes/${disputeId}` },
      { name: 'wallet', path: '/wallet' },
    ]);
    await page.context().close();
  }
});

test('the dispute team’s and the operator’s pages', async ({ browser }) => {
  test.setTimeout(420_000);
  const team = await signedInPage(browser, DEMO.disputes);
  await checkEveryPage(team, 'dispute-team', [{ name: 'queue', path: '/dispute-team' }]);
  const operator = await operatorPage(browser);
  const clients = await api<{ clients: Array<{ id: string; name: string }> }>(process.env.DASHBOARD_OPERATOR_KEY!, 'GET', '/v1/operator/clients');
  await checkEveryPage(operator, 'operator', [
    { name: 'overview', path: '/operator/overview' },
    { name: 'clients', path: '/operator/clients' },
    { name: 'client', path: `/operator/clients/${clients.clients[0]!.id}` },
    { name: 'audit', path: '/operator/audit' },
    { name: 'queue', path: '/dispute-team' },
    { name: 'case', path: `/dispute-team/${arbitrationId}` },
  ]);
});
