/**
 * What a dashboard page load costs the API: for the ten busiest pages, each loaded in Chromium by the person who
 * uses it, the /v1 calls the load made (the server's request log lines carrying the load's trace id, which the
 * dashboard passes on in `traceparent`), their summed server time, and the page document's own server time.
 * Also the LCP of a customer's transactions list of 20 deals.
 */
import { randomBytes } from 'node:crypto';
import { chromium, type BrowserContext } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/browser-check';
import { callsOfTrace } from '../e2e/support/trace-calls';
import type { HttpDriver } from './load';
import { median } from './median';
import { DEMO_SELLER_EMAIL, DEMO_SIGN_INS, demoApi, pageLcp, signIn, transactionPageLcp, userIdByEmail, type Lcp } from './dashboard-lcp';

type Role = keyof typeof DEMO_SIGN_INS;
export type PageLoadCost = { page: string; role: Role; loads: number; apiCalls: number[]; fileDownloads: number[]; medianApiCalls: number; medianApiMs: number; medianDocumentMs: number };
export type DashboardPagesResult = { pages: PageLoadCost[]; listLcp: { deals: number; lcpMs: number[]; medianMs: number } };

const DEALS_ON_THE_LIST = 20;

/** The demo buyer's list made 20 deals long, in the states a list shows: waiting for funding, funded, delivered. */
export async function fillCustomerList(api: HttpDriver, buyerId: string, sellerId: string): Promise<void> {
  const page = await api.ok('GET', `/v1/transactions?user_id=${buyerId}&page=1&limit=1`);
  const missing = DEALS_ON_THE_LIST - Number(page.pagination.total);
  for (let i = 0; i < missing; i++) {
    const deal = await api.ok('POST', '/v1/transactions', {
      title: `Bench order ${i + 1}`,
      description: 'An order on the customer list',
      buyer_id: buyerId,
      seller_id: sellerId,
      milestones: [{ title: 'Goods', description: 'The goods', amount: 2000, due_date: new Date(Date.now() + 10 * 86_400_000).toISOString() }],
    });
    const milestone = deal.milestones[0].id;
    if (i % 3 === 0) continue;
    await api.ok('POST', `/v1/milestones/${milestone}/fund`, { buyer_id: buyerId });
    if (i % 3 === 1) continue;
    await api.ok('POST', `/v1/milestones/${milestone}/deliver`, { seller_id: sellerId, proofs_of_completion: ['https://files.example.com/bench/proof.png'] });
  }
}

/** The demo's records the pages show: its buyer, a deal of theirs with a delivered milestone, and their dispute. */
export async function demoRecords(api: HttpDriver): Promise<{ buyerId: string; sellerId: string; transactionId: string; disputeId: string }> {
  const buyerId = await userIdByEmail(api, DEMO_SIGN_INS.buyer.email);
  const sellerId = await userIdByEmail(api, DEMO_SELLER_EMAIL);
  const deals = await api.ok('GET', `/v1/transactions?user_id=${buyerId}&page=1&limit=100&sort=ASC`);
  const transactionId = (deals.transactions as Array<{ id: string }>)[0]!.id;
  const disputes = await api.ok('GET', '/v1/dispute?page=1&limit=1');
  return { buyerId, sellerId, transactionId, disputeId: (disputes.disputes as Array<{ id: string }>)[0]!.id };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `loads` fresh loads of one page, each under a trace of its own, settled (its client-side data fetched too). */
async function pageLoadCost(context: BrowserContext, output: () => string, role: Role, path: string, loads: number): Promise<PageLoadCost> {
  const apiCalls: number[] = [];
  const fileDownloads: number[] = [];
  const apiMs: number[] = [];
  const documentMs: number[] = [];
  for (let i = 0; i < loads; i++) {
    const traceId = randomBytes(16).toString('hex');
    const page = await context.newPage();
    await page.setExtraHTTPHeaders({ traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` });
    const response = await page.goto(path, { waitUntil: 'networkidle' });
    if (!response?.ok()) throw new Error(`${path} as ${role} answered ${response?.status()}`);
    documentMs.push(Math.round(await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      return navigation ? navigation.responseStart - navigation.requestStart : 0;
    })));
    await page.close();
    // The server writes its log lines asynchronously: give the last ones a moment.
    await sleep(300);
    const cost = callsOfTrace(output(), traceId);
    apiCalls.push(cost.calls);
    fileDownloads.push(cost.files);
    apiMs.push(cost.ms);
  }
  return { page: path, role, loads, apiCalls, fileDownloads, medianApiCalls: median(apiCalls), medianApiMs: median(apiMs), medianDocumentMs: median(documentMs) };
}

/**
 * The ten busiest pages: a customer's list, deal, dispute and wallet; the admin's overview, transactions, customers,
 * a customer and payouts; the dispute team's queue. `ids` names the records the demo seed made.
 */
export async function dashboardPageCosts(
  baseUrl: string,
  output: () => string,
  ids: { transactionId: string; disputeId: string; buyerId: string },
  loads = 5,
): Promise<DashboardPagesResult> {
  const plan: Array<[Role, string[]]> = [
    ['buyer', ['/transactions', `/transactions/${ids.transactionId}`, `/disputes/${ids.disputeId}`, '/wallet']],
    ['admin', ['/admin/overview', '/admin/transactions', '/admin/customers', `/admin/customers/${ids.buyerId}`, '/admin/payouts']],
    ['disputes', ['/dispute-team']],
  ];
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const pages: PageLoadCost[] = [];
    let listLcp: DashboardPagesResult['listLcp'] | undefined;
    for (const [role, paths] of plan) {
      const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
      await signIn(context, DEMO_SIGN_INS[role]);
      for (const path of paths) pages.push(await pageLoadCost(context, output, role, path, loads));
      if (role === 'buyer') listLcp = { deals: DEALS_ON_THE_LIST, ...(await pageLcp(context, '/transactions', 'Bench order', loads)) };
      await context.close();
    }
    return { pages, listLcp: listLcp! };
  } finally {
    await browser.close();
  }
}

export type DashboardPhase = DashboardPagesResult & { lcp: Lcp };

/**
 * The dashboard phase on a server seeded with the demo (and given `encryptionKey`, which seals the demo's key): the
 * transaction page's LCP, then the ten busiest pages' cost to the API and the customer list's LCP.
 */
export async function dashboardPhase(server: { baseUrl: string; databaseUrl: string; output: () => string }, encryptionKey: string, loads: number): Promise<DashboardPhase> {
  const api = await demoApi(server.baseUrl, server.databaseUrl, encryptionKey);
  try {
    const lcp = await transactionPageLcp(api, server.baseUrl, server.databaseUrl, loads);
    const records = await demoRecords(api);
    await fillCustomerList(api, records.buyerId, records.sellerId);
    return { lcp, ...(await dashboardPageCosts(server.baseUrl, server.output, records, loads)) };
  } finally {
    api.close();
  }
}
