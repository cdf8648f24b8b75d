import path from 'node:path';
import zlib from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Browser, type BrowserContext, type Page, type Request } from '@playwright/test';

export { expect };

/** The spec file each context a test opened itself (browser.newContext) belongs to. */
const openedBy = new WeakMap<BrowserContext, string>();

/**
 * baseURL from the global setup's server (set in process.env before the workers start). And the pages a spec
 * opens itself (signed-in people it keeps for several tests) close when its worker moves to the next spec:
 * each would otherwise go on polling the server and ticking its countdowns until the suite ends, and a
 * long suite with dozens of them open slows every later page of it.
 */
export const test = base.extend<{ closePagesOfEarlierSpecs: void }>({
  baseURL: async ({}, provide) => {
    await provide(process.env.DASHBOARD_BASE_URL);
  },
  closePagesOfEarlierSpecs: [
    async ({ browser }, use, testInfo) => {
      // A context no test has finished with yet is this spec's own (its beforeAll's): it stays.
      const earlier = browser.contexts().filter((context) => (openedBy.get(context) ?? testInfo.file) !== testInfo.file);
      await Promise.all(earlier.map((context) => context.close()));
      await use();
      for (const context of browser.contexts()) if (!openedBy.has(context)) openedBy.set(context, testInfo.file);
    },
    { auto: true },
  ],
});

export const DEMO = {
  admin: { email: 'admin@demo.escrowdesk.ng', password: 'demo-admin-pass' },
  buyer: { email: 'ada.obi@demo.escrowdesk.ng', password: 'demo-buyer-pass' },
  seller: { email: 'tunde.balogun@demo.escrowdesk.ng', password: 'demo-seller-pass' },
  disputes: { email: 'disputes@demo.escrowdesk.ng', password: 'demo-disputes-pass' },
} as const;

export const SCREENSHOTS = path.resolve(__dirname, '../.artifacts/screenshots');
/** Screenshots are for a person reviewing the pages, not for the suite, which asserts nothing of them: E2E_SCREENSHOTS=1 keeps them. */
export const KEEP_SCREENSHOTS = process.env.E2E_SCREENSHOTS === '1';

export async function shot(page: Page, name: string): Promise<void> {
  // Let polling and countdowns settle so the picture is of a rendered page, not of a spinner.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  if (!KEEP_SCREENSHOTS) return;
  // A long page (the API reference) takes more than an action's time to capture whole on a busy machine.
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true, timeout: 90_000 });
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/(transactions|admin\/overview|dispute-team)$/);
}

export async function signedInPage(browser: Browser, who: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.DASHBOARD_BASE_URL });
  const page = await context.newPage();
  await signIn(page, who.email, who.password);
  return page;
}

/** Clicks a button that opens a confirmation dialog, then the dialog's confirm button. */
export async function confirm(page: Page, opener: string | RegExp, confirmLabel: string | RegExp): Promise<void> {
  await page.getByRole('button', { name: opener }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: confirmLabel }).click();
  await expect(dialog).toBeHidden();
}

export async function expectToast(page: Page, text: string | RegExp, tone: 'success' | 'error' = 'success'): Promise<void> {
  await expect(page.getByTestId(`toast-${tone}`).filter({ hasText: text }).first()).toBeVisible();
}

/** Calls the /v1 API directly (test setup that the dashboard is not under test for). */
export function api<T = any>(key: string, method: 'GET' | 'POST' | 'PATCH', route: string, body?: unknown): Promise<T> {
  return apiAt<T>(process.env.DASHBOARD_BASE_URL!, key, method, route, body);
}

/** The same, on a server of a spec's own. */
export async function apiAt<T = any>(base: string, key: string, method: 'GET' | 'POST' | 'PATCH', route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as { status: boolean; message: string; data: T };
  if (!json.status) throw new Error(`${method} ${route}: ${response.status} ${json.message}`);
  return json.data;
}

/** The demo client's secret key, which the browser suite's global setup hands over. */
export const demoKey = () => process.env.DASHBOARD_DEMO_SECRET_KEY as string;

/** A demo customer's escrow user id, found by a search such as their email's local part. */
export async function demoUserId(search: string): Promise<string> {
  const list = await api<{ users: Array<{ id: string }> }>(demoKey(), 'GET', `/v1/users?page=1&limit=1&sort=DESC&search=${search}`);
  if (!list.users[0]) throw new Error(`user ${search} missing`);
  return list.users[0].id;
}

/**
 * A one-milestone deal between the demo buyer Ada and seller Tunde, funded from Ada's wallet (topped up
 * with `walletFunds`), delivered, returned by Ada and the return rejected by Tunde: the state in which a
 * dispute is opened. Set up through the API with the demo client's key.
 */
export async function demoReturnRejected(a: {
  title: string;
  description: string;
  amount: number;
  walletFunds: number;
  commissionPayer?: 'BUYER_100' | 'SELLER_100';
  milestoneTitle?: string;
  milestoneDescription?: string;
  rejectionReason: string;
  proofOfReturn?: string;
}): Promise<{ ada: string; tunde: string; transactionId: string; milestoneId: string }> {
  const [ada, tunde] = await Promise.all([demoUserId('ada.obi'), demoUserId('tunde.balogun')]);
  await api(demoKey(), 'POST', '/v1/wallets/fund', { user_id: ada, amount: a.walletFunds });
  const tx = await api<{ id: string; milestones: Array<{ id: string }> }>(demoKey(), 'POST', '/v1/transactions', {
    title: a.title,
    description: a.description,
    buyer_id: ada,
    seller_id: tunde,
    ...(a.commissionPayer ? { commission_payer: a.commissionPayer } : {}),
    milestones: [{ title: a.milestoneTitle ?? 'Only milestone', description: a.milestoneDescription ?? 'Everything', amount: a.amount, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString() }],
  });
  const m = tx.milestones[0]!.id;
  const proof = 'https://example.com/waybill.pdf';
  await api(demoKey(), 'POST', `/v1/milestones/${m}/fund`, { buyer_id: ada });
  await api(demoKey(), 'POST', `/v1/milestones/${m}/deliver`, { seller_id: tunde, proofs_of_completion: [proof] });
  await api(demoKey(), 'POST', `/v1/milestones/${m}/reject`, { buyer_id: ada, rejection_reason: a.rejectionReason, proofs_of_return: [a.proofOfReturn ?? proof] });
  await api(demoKey(), 'PATCH', `/v1/milestones/${m}/reject/disapprove`, { seller_id: tunde });
  return { ada, tunde, transactionId: tx.id, milestoneId: m };
}

/** A Server Action's call: a POST carrying Next's `next-action` header, its arguments in the body. */
export const isServerAction = (request: Request, bodyHas?: string) =>
  request.method() === 'POST' && Boolean(request.headers()['next-action']) && (bodyHas === undefined || (request.postData() ?? '').includes(bodyHas));

export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A small solid-colour PNG, so an uploaded proof is a real image the browser can preview. */
export function pngImage(rgb: [number, number, number], size = 48): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3).map((_, i) => rgb[i % 3] as number)]);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** The serious and critical accessibility violations axe-core finds on the page as it is now. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
}

/** How far the page is wider than the window (0: no horizontal scrolling). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
