import type { Browser, Page } from '@playwright/test';
import { apiAt, expect, pngImage, unique } from './support';

/** Set-up through the API and one-time links, shared by specs that run a server of their own. */

export type StoredFile = { id: string; url: string; bytes: Buffer };
export type ArbitrationCase = { disputeId: string; code: string; delivery: StoredFile; ret: StoredFile; evidence: StoredFile };

export async function uploadPng(base: string, key: string, rgb: [number, number, number], filename: string): Promise<StoredFile> {
  const bytes = pngImage(rgb);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), filename);
  const res = await fetch(`${base}/v1/files`, { method: 'POST', headers: { authorization: key }, body: form });
  const body = (await res.json()) as { data: { id: string; url: string } };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { id: body.data.id, url: body.data.url, bytes };
}

/**
 * A dispute of the key's client driven to ARBITRATION (test keys: the sandbox clock moves 10 days), with an
 * uploaded PNG each as proof of delivery, proof of return and the buyer's evidence.
 */
export async function caseInArbitration(base: string, key: string): Promise<ArbitrationCase> {
  const api = <T = any>(method: 'GET' | 'POST' | 'PATCH', route: string, body?: unknown) => apiAt<T>(base, key, method, route, body);
  const person = (first: string) => api<{ id: string }>('POST', '/v1/users', { first_name: first, last_name: 'Test', email_address: `${first.toLowerCase()}.${unique()}@example.com` });
  const [buyer, seller] = [await person('Buyer'), await person('Seller')];
  const delivery = await uploadPng(base, key, [30, 160, 60], 'delivery.png');
  const ret = await uploadPng(base, key, [40, 70, 200], 'return.png');
  const evidence = await uploadPng(base, key, [200, 40, 40], 'evidence.png');
  await api('POST', '/v1/wallets/fund', { user_id: buyer.id, amount: 10_000 });
  const tx = await api<{ milestones: Array<{ id: string }> }>('POST', '/v1/transactions', {
    title: `Disputed deal ${unique()}`,
    description: 'Staged for arbitration',
    buyer_id: buyer.id,
    seller_id: seller.id,
    milestones: [{ title: 'Only milestone', description: 'Everything', amount: 5_000, due_date: new Date(Date.now() + 21 * 86_400_000).toISOString() }],
  });
  const m = tx.milestones[0]!.id;
  await api('POST', `/v1/milestones/${m}/fund`, { buyer_id: buyer.id });
  await api('POST', `/v1/milestones/${m}/deliver`, { seller_id: seller.id, proofs_of_completion: [delivery.url] });
  await api('POST', `/v1/milestones/${m}/reject`, { buyer_id: buyer.id, rejection_reason: 'Arrived broken', proofs_of_return: [ret.url] });
  await api('PATCH', `/v1/milestones/${m}/reject/disapprove`, { seller_id: seller.id });
  const dispute = await api<{ id: string; dispute_code: string }>('POST', '/v1/dispute/create', { description: 'Return refused', buyer_id: buyer.id, seller_id: seller.id, milestone_id: m });
  await api('PATCH', `/v1/dispute/${dispute.id}/escalate`, { seller_id: seller.id });
  await api('POST', `/v1/dispute/${dispute.id}/evidence`, { buyer_id: buyer.id, text: 'Photo of the item as it arrived', files: [evidence.url] });
  await api('POST', `/v1/dispute/${dispute.id}/evidence`, { seller_id: seller.id, text: 'It left intact' });
  await api('POST', '/v1/test-clock/advance', { days: 10 });
  expect((await api<{ status: string }>('GET', `/v1/dispute/${dispute.id}`)).status).toBe('ARBITRATION');
  return { disputeId: dispute.id, code: dispute.dispute_code, delivery, ret, evidence };
}

/**
 * Opens a one-time link (its path, on `base`), chooses the password, signs in with it, and waits for the
 * person's home page: how every invited person (operator, admin, viewer) starts.
 */
export async function acceptInviteAndSignIn(browser: Browser, a: { base: string; link: string; email: string; password: string; home: RegExp }): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: a.base })).newPage();
  await page.goto(new URL(a.link, a.base).pathname);
  await page.getByLabel('New password').fill(a.password);
  await page.getByLabel('Repeat the password').fill(a.password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.waitForURL(/\/login/);
  await page.getByLabel('Email').fill(a.email);
  await page.getByLabel('Password').fill(a.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(a.home);
  return page;
}

/** Signs in on a server of the spec's own; waits for `home` when given. */
export async function signedInAt(browser: Browser, base: string, who: { email: string; password: string }, home?: RegExp): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: base })).newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (home) await page.waitForURL(home);
  return page;
}

/** The admin's "New customer" form with dashboard access ticked; answers the one-time link it shows. */
export async function createCustomerInDashboard(page: Page, person: { first: string; last: string; email: string }): Promise<string> {
  const form = page.getByRole('form', { name: 'New customer' });
  await form.getByLabel('First name').fill(person.first);
  await form.getByLabel('Last name').fill(person.last);
  await form.getByLabel('Email').fill(person.email);
  await form.getByRole('checkbox').check();
  await form.getByRole('button', { name: 'Create customer' }).click();
  const link = page.getByTestId('invite-link');
  await expect(page.getByRole('status').filter({ hasText: `${person.first} was created` })).toBeVisible();
  await expect(link).toHaveValue(/\/invite\//);
  return link.inputValue();
}
