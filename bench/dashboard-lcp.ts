/**
 * Time to the transaction page's main content (Largest Contentful Paint) in Chromium, for a transaction of
 * 20 milestones and 200 log lines, viewed by its buyer on the production build.
 */
import { randomUUID } from 'node:crypto';
import { chromium, type BrowserContext } from '@playwright/test';
import postgres from 'postgres';
import { openSealed, PURPOSES } from '../e2e/support/sealed-secrets';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/browser-check';
import { onDatabase } from '../e2e/support/test-server';
import { HttpDriver } from './load';
import { median } from './median';

/** The demo's published sign-ins (README), and its seller's email. */
export const DEMO_SIGN_INS = {
  admin: { email: 'admin@demo.escrowdesk.ng', password: 'demo-admin-pass' },
  buyer: { email: 'ada.obi@demo.escrowdesk.ng', password: 'demo-buyer-pass' },
  disputes: { email: 'disputes@demo.escrowdesk.ng', password: 'demo-disputes-pass' },
} as const;
export const DEMO_SELLER_EMAIL = 'tunde.balogun@demo.escrowdesk.ng';
const MILESTONES = 20;
const LOG_LINES = 200;

export async function userIdByEmail(api: HttpDriver, email: string): Promise<string> {
  const page = await api.ok('GET', `/v1/users?page=1&limit=5&sort=DESC&search=${encodeURIComponent(email)}`);
  const user = (page.users as Array<{ id: string; email: string }>).find((u) => u.email === email);
  if (!user) throw new Error(`demo user ${email} not found: ${JSON.stringify(page).slice(0, 300)}`);
  return user.id;
}

/**
 * The transaction between buyer and seller, made through the API (fund and deliver of the first milestone
 * are real); the rest of its 200 log lines are written straight into milestone_logs, as a long-lived deal
 * would have them. Its id.
 */
export async function largeTransaction(api: HttpDriver, databaseUrl: string, buyerId: string, sellerId: string): Promise<string> {
  const db = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    await api.ok('POST', '/v1/wallets/fund', { user_id: buyerId, amount: 1_000_000 });
    const transaction = await api.ok('POST', '/v1/transactions', {
      title: 'Bench: a long deal',
      description: 'Twenty milestones and a long log',
      buyer_id: buyerId,
      seller_id: sellerId,
      milestones: Array.from({ length: MILESTONES }, (_, i) => ({
        title: `Phase ${i + 1}`,
        description: 'A phase of work',
        amount: 5000,
        due_date: new Date(Date.now() + (10 + i) * 86_400_000).toISOString(),
      })),
    });
    const first = transaction.milestones[0].id;
    await api.ok('POST', `/v1/milestones/${first}/fund`, { buyer_id: buyerId });
    await api.ok('POST', `/v1/milestones/${first}/deliver`, { seller_id: sellerId, proofs_of_completion: ['https://files.example.com/bench/proof.png'] });
    const counted = await db<Array<{ n: string }>>`select count(*) as n from milestone_logs l join milestones m on m.id = l.milestone_id where m.transaction_id = ${transaction.id}`;
    const missing = LOG_LINES - Number(counted[0]!.n);
    for (let i = 0; i < missing; i++) {
      const milestone = transaction.milestones[i % MILESTONES]!.id;
      await db`insert into milestone_logs (id, milestone_id, log_message, actor) values (${randomUUID()}, ${milestone}, ${`Note ${i + 1}: the buyer and seller agreed a detail of this phase by message.`}, 'client')`;
    }
    return transaction.id;
  } finally {
    await db.end();
  }
}

export type Lcp = { lcpMs: number[]; medianMs: number; milestones: number; logLines: number };

/** A driver holding the demo client's key, on a server seeded with the demo and given `encryptionKey`. */
export async function demoApi(baseUrl: string, databaseUrl: string, encryptionKey: string): Promise<HttpDriver> {
  const rows = await onDatabase(
    databaseUrl,
    (db) => db<Array<{ secret_key: string }>>`select k.secret_key from dashboard_client_keys k join app_settings s on s.key = 'dashboard_client' and s.value->>'client_id' = k.client_id::text`,
  );
  // The server keeps the demo key encrypted at rest, with the key the bench gave it.
  return new HttpDriver(baseUrl, openSealed(rows[0]!.secret_key, encryptionKey, PURPOSES.clientSecretKey), 4);
}

/** The demo's transaction page, seen by the demo buyer. */
export async function transactionPageLcp(api: HttpDriver, baseUrl: string, databaseUrl: string, loads = 5): Promise<Lcp> {
  const [buyerId, sellerId] = [await userIdByEmail(api, DEMO_SIGN_INS.buyer.email), await userIdByEmail(api, DEMO_SELLER_EMAIL)];
  return signedInPageLcp(baseUrl, await largeTransaction(api, databaseUrl, buyerId, sellerId), DEMO_SIGN_INS.buyer, loads);
}

/** Signs `who` in on this browser context: its pages share the session. */
export async function signIn(context: BrowserContext, who: { email: string; password: string }): Promise<void> {
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.close();
}

/** LCP of `path` over `loads` fresh loads in a signed-in context, each checked to show `ready`. */
export async function pageLcp(context: BrowserContext, path: string, ready: string, loads = 5): Promise<{ lcpMs: number[]; medianMs: number }> {
  const lcpMs: number[] = [];
  for (let i = 0; i < loads; i++) {
    const fresh = await context.newPage();
    await fresh.goto(path, { waitUntil: 'load' });
    const lcp = await fresh.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            const entries = list.getEntries();
            resolve(entries[entries.length - 1]?.startTime ?? 0);
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
    if (!(await fresh.getByText(ready).first().isVisible())) throw new Error(`${path} did not show "${ready}"`);
    lcpMs.push(Math.round(lcp));
    await fresh.close();
  }
  return { lcpMs, medianMs: median(lcpMs) };
}

/** LCP of the transaction's page over `loads` fresh loads, signed in as `who` (its buyer). */
export async function signedInPageLcp(baseUrl: string, transactionId: string, who: { email: string; password: string }, loads = 5): Promise<Lcp> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
    await signIn(context, who);
    return { ...(await pageLcp(context, `/transactions/${transactionId}`, 'Phase 20', loads)), milestones: MILESTONES, logLines: LOG_LINES };
  } finally {
    await browser.close();
  }
}
