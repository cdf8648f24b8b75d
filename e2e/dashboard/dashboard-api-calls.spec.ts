import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { callsOfTrace, type TraceCalls } from '../support/trace-calls';
import { adminMoneyPages, adminSettingsPages, customerPages, disputeTeamPages, operatorPages, stageTourRecords, type TourRecords, type Visit } from './page-tour';
import { acceptInviteAndSignIn } from './staging';
import { api, DEMO, demoKey, expect, signedInPage, test, unique } from './support';

/**
 * Every dashboard page, loaded as the person who uses it, asks the API at most twice (issue #60): each load carries
 * a W3C traceparent of its own, the dashboard passes its trace id on to every /v1 call it makes for that load (the
 * page, its data routes and server actions), and the API's request log lines say which trace they belong to. A file
 * the page shows (a proof's thumbnail) is content the browser downloads once per file, counted apart
 * (docs/dashboard.md, "API calls per page").
 */

const MOST_CALLS_PER_LOAD = 2;
const PASSWORD = 'api calls password 123';

type Count = { role: string; page: string } & Calls;
type Calls = Omit<TraceCalls, 'ms'>;

const traceId = () => randomBytes(16).toString('hex');
const traceparent = (trace: string) => `00-${trace}-${randomBytes(8).toString('hex')}-01`;

/** The /v1 calls of this trace the server has written so far. */
function callsOfLoadTrace(trace: string): Calls {
  const { ms: _ms, ...calls } = callsOfTrace(fs.readFileSync(process.env.DASHBOARD_SERVER_LOG!, 'utf8'), trace);
  return calls;
}

/** The server writes its log lines a moment after answering: the count once it has stopped changing. */
async function settledCalls(trace: string): Promise<Calls> {
  let last: Calls = { calls: -1, files: -1, routes: [] };
  let steady = 0;
  while (steady < 4) {
    await new Promise((r) => setTimeout(r, 300));
    const now = callsOfLoadTrace(trace);
    steady = now.calls === last.calls && now.files === last.files ? steady + 1 : 0;
    last = now;
  }
  return last;
}

/**
 * One load of `path` with a trace of its own, waited for until its client-side data routes have answered; what the
 * page polls for afterwards carries another trace.
 */
async function callsOfLoad(page: Page, path: string): Promise<Calls> {
  // What the page before (the sign-in's landing page) still fetches as it settles is not this load's.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  const trace = traceId();
  await page.setExtraHTTPHeaders({ traceparent: traceparent(trace) });
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(400);
  await expect(page.locator('h1').first()).toBeVisible();
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.setExtraHTTPHeaders({ traceparent: traceparent(traceId()) });
  return settledCalls(trace);
}

const counted: Count[] = [];

async function countPages(page: Page, role: string, visits: Visit[]): Promise<Count[]> {
  const counts: Count[] = [];
  for (const visit of visits) counts.push({ role, page: visit.name, ...(await callsOfLoad(page, visit.path)) });
  counted.push(...counts);
  console.log(table(counts));
  return counts;
}

const table = (counts: Count[]) =>
  ['| role | page | /v1 calls | file downloads |', '|---|---|---|---|', ...counts.map((c) => `| ${c.role} | ${c.page} | ${c.calls} | ${c.files} |`)].join('\n');

function expectFewCalls(counts: Count[]): void {
  const over = counts.filter((c) => c.calls > MOST_CALLS_PER_LOAD).map((c) => `${c.role} ${c.page}: ${c.calls} calls (${c.routes.join(', ')})`);
  expect(over, `pages that ask the API more than ${MOST_CALLS_PER_LOAD} times per load`).toEqual([]);
}

const acceptAndSignIn = (browser: Browser, link: string, email: string, home: RegExp) =>
  acceptInviteAndSignIn(browser, { base: process.env.DASHBOARD_BASE_URL!, link, email, password: PASSWORD, home });

/** An operator, made as `npm run create-operator` makes one, signed in. */
async function operatorPage(browser: Browser): Promise<Page> {
  const email = `api.calls.operator.${unique()}@example.com`;
  const made = await fetch(`${process.env.DASHBOARD_BASE_URL}/api/operators`, {
    method: 'POST',
    headers: { authorization: process.env.DASHBOARD_OPERATOR_KEY!, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  const link = ((await made.json()) as { data: { sign_in_url: string } }).data.sign_in_url;
  return acceptAndSignIn(browser, link, email, /\/operator\/clients$/);
}

let records: TourRecords;

/**
 * The demo buyer's list full: at least 20 deals with the demo seller, awaiting funding, delivery, acceptance, and one
 * in dispute waiting for the buyer's answer to the seller's offer; payouts of three more customers.
 */
test.beforeAll(async () => {
  test.setTimeout(300_000);
  records = await stageTourRecords(`API calls ${unique()}`);
  const adaId = records.customerId;
  const tunde = records.sellerId;
  const listed = await api<{ pagination: { total: number } }>(demoKey(), 'GET', `/v1/transactions?page=1&limit=1&user_id=${adaId}`);
  const more = Math.max(0, 21 - listed.pagination.total);
  // Each worker runs this once: the second finds the list already full.
  if (more > 0) await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: adaId, amount: 5_000 * more });
  for (let i = 0; i < more; i++) {
    const tx = await api<{ milestones: Array<{ id: string }> }>(demoKey(), 'POST', '/v1/transactions', {
      title: `Listed deal ${i + 1} ${unique()}`,
      description: 'Fills the list',
      buyer_id: adaId,
      seller_id: tunde,
      milestones: [
        { title: 'First part', description: 'Half', amount: 2_500, due_date: new Date(Date.now() + (10 + i) * 86_400_000).toISOString() },
        { title: 'Second part', description: 'The rest', amount: 2_500, due_date: new Date(Date.now() + (20 + i) * 86_400_000).toISOString() },
      ],
    });
    const first = tx.milestones[0]!.id;
    if (i % 3 === 0) continue;
    await api(demoKey(), 'POST', `/v1/milestones/${first}/fund`, { buyer_id: adaId });
    if (i % 3 === 1) continue;
    await api(demoKey(), 'POST', `/v1/milestones/${first}/deliver`, { seller_id: tunde, proofs_of_completion: ['https://example.com/waybill.pdf'] });
  }
  // The admin's payouts list full of customers: each row names its own.
  for (const name of ['Bisi', 'Chidi', 'Dayo']) {
    const user = await api<{ id: string }>(demoKey(), 'POST', '/v1/users', { first_name: name, last_name: 'Payee', email_address: `${name.toLowerCase()}.${unique()}@example.com` });
    await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: user.id, amount: 1_000 });
    await api(demoKey(), 'POST', '/v1/wallets/banks/disbursement', { user_id: user.id, account_number: '0016563228', bank_code: '058' });
    await api(demoKey(), 'POST', '/v1/payouts', { user_id: user.id, amount: 500 });
  }
});

test.afterAll(() => {
  console.log(table(counted));
});

for (const [role, who] of [
  ['buyer', DEMO.buyer],
  ['seller', DEMO.seller],
] as const) {
  test(`the ${role}’s pages ask the API at most twice per load`, async ({ browser }) => {
    test.setTimeout(300_000);
    const page = await signedInPage(browser, who);
    expectFewCalls(await countPages(page, role, customerPages(records)));
    await page.context().close();
  });
}

test('the client admin’s pages ask the API at most twice per load', async ({ browser }) => {
  test.setTimeout(300_000);
  const page = await signedInPage(browser, DEMO.admin);
  const counts = await countPages(page, 'admin', [...adminMoneyPages(records), ...adminSettingsPages]);
  await page.context().close();
  expectFewCalls(counts);
});

test('the dispute team’s and the operator’s pages ask the API at most twice per load', async ({ browser }) => {
  test.setTimeout(300_000);
  const team = await signedInPage(browser, DEMO.disputes);
  // The case is another client's (its clock is moved): the operator opens it; the demo's dispute team sees its queue.
  const counts = await countPages(team, 'dispute team', disputeTeamPages);
  await team.context().close();
  const operator = await operatorPage(browser);
  const clients = await api<{ clients: Array<{ id: string }> }>(process.env.DASHBOARD_OPERATOR_KEY!, 'GET', '/v1/operator/clients');
  counts.push(
    ...(await countPages(operator, 'operator', operatorPages(records, clients.clients[0]!.id))),
  );
  await operator.context().close();
  expectFewCalls(counts);
});
