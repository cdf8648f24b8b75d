import { randomUUID } from 'node:crypto';
import { expect, inject } from 'vitest';
import { operationAt } from './operations';

export type ApiResponse<T = any> = { status: number; body: T; headers: Headers };

export const baseUrl = () => inject('apiBaseUrl');
export const operatorKey = () => inject('operatorKey');

export async function call<T = any>(
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown; rawBody?: BodyInit; headers?: Record<string, string>; baseUrl?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = opts.key;
  let body: BodyInit | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${opts.baseUrl ?? baseUrl()}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // binary or empty body: keep the text
  }
  checkSuccessShape(method, path, res.status, parsed);
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/**
 * Every success the suites see is checked against its operation's response schema in the app's own
 * definitions (lib/api): a field the code answers that the contract does not list (or the reverse),
 * or a type that drifted, fails the test that made the call.
 */
export function checkSuccessShape(method: string, path: string, status: number, body: unknown): void {
  if (status !== 200 || typeof body !== 'object' || body === null || (body as { status?: unknown }).status !== true) return;
  const op = operationAt(method, path);
  if (!op?.success) return;
  const checked = op.success.safeParse(body);
  if (!checked.success) {
    const issues = checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`${method} ${path} answered outside its response schema (${op.id}): ${issues}`);
  }
}

/** Asserts the error envelope of docs/decisions.md §1 and returns it. */
export function expectError(res: ApiResponse, status: number, code: string, messageIncludes?: string | RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ status: false, code });
  expect(typeof res.body.message).toBe('string');
  if (messageIncludes) expect(res.body.message).toMatch(messageIncludes);
  return res.body as { status: false; code: string; message: string; errors?: Array<{ field: string; message: string }> };
}

export function expectOk<T = any>(res: ApiResponse): T {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.status).toBe(true);
  expect(typeof res.body.message).toBe('string');
  return res.body.data as T;
}

export type TestClient = { id: string; secretKey: string; publicKey: string };

/** A server other than the suite's shared one: its address and operator key. */
export type ServerAt = { baseUrl: string; operatorKey: string };

export async function newClient(mode: 'test' | 'live' = 'test', at?: ServerAt): Promise<TestClient> {
  const data = expectOk(
    await call('POST', '/v1/operator/clients', { key: at?.operatorKey ?? operatorKey(), baseUrl: at?.baseUrl, body: { name: `Client ${randomUUID().slice(0, 8)}`, mode } }),
  );
  return { id: data.id, secretKey: data.secret_key, publicKey: data.public_key };
}

/** A live client whose KYC the operator has marked complete: it may move real money. */
export async function newVerifiedLiveClient(at?: ServerAt): Promise<TestClient> {
  const client = await newClient('live', at);
  expectOk(await call('PATCH', `/v1/operator/clients/${client.id}`, { key: at?.operatorKey ?? operatorKey(), baseUrl: at?.baseUrl, body: { is_kyc_completed: true } }));
  return client;
}

export async function newUser(client: TestClient, first = 'Ada') {
  return expectOk(
    await call('POST', '/v1/users', { key: client.secretKey, body: { first_name: first, last_name: 'Test', email_address: `${first.toLowerCase()}.${randomUUID()}@example.com` } }),
  );
}

export async function fundWallet(client: TestClient, userId: string, amount: number) {
  return expectOk(await call('POST', '/v1/wallets/fund', { key: client.secretKey, body: { user_id: userId, amount } }));
}

export async function walletBalance(client: TestClient, userId: string): Promise<number> {
  return expectOk(await call('GET', `/v1/wallets/${userId}`, { key: client.secretKey })).balance;
}

export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** Moves the client's test clock to `extraMs` past `instant` (before it, when negative); answers with what settled. */
export async function advanceTo(client: TestClient, instant: string, extraMs = 60_000) {
  const clock = expectOk(await call('GET', '/v1/test-clock', { key: client.secretKey }));
  const seconds = Math.ceil((Date.parse(instant) + extraMs - Date.parse(clock.now)) / 1000);
  return expectOk(await call('POST', '/v1/test-clock/advance', { key: client.secretKey, body: { seconds: Math.max(seconds, 0) } }));
}

/** A buyer with money, a seller, and a transaction of the given milestone amounts. */
export async function newDeal(client: TestClient, amounts: number[], opts: { walletFunds?: number; commission_payer?: string } = {}) {
  const buyer = await newUser(client, 'Buyer');
  const seller = await newUser(client, 'Seller');
  if ((opts.walletFunds ?? 0) > 0) await fundWallet(client, buyer.id, opts.walletFunds!);
  const transaction = expectOk(
    await call('POST', '/v1/transactions', {
      key: client.secretKey,
      body: {
        title: 'Test deal',
        description: 'A deal made by a test',
        buyer_id: buyer.id,
        seller_id: seller.id,
        commission_payer: opts.commission_payer,
        milestones: amounts.map((amount, i) => ({ title: `Milestone ${i + 1}`, description: 'Work', amount, due_date: inDays(10 + i) })),
      },
    }),
  );
  const milestoneIds: string[] = transaction.milestones.map((m: { id: string }) => m.id);
  return { buyer, seller, transaction, milestoneIds };
}

/** A tiny real PNG, uploaded as a proof; returns its URL. */
export async function uploadProof(client: TestClient): Promise<string> {
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  const form = new FormData();
  form.append('file', new Blob([png], { type: 'image/png' }), 'proof.png');
  const res = await fetch(`${baseUrl()}/v1/files`, { method: 'POST', headers: { authorization: client.secretKey }, body: form });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  checkSuccessShape('POST', '/v1/files', res.status, body);
  return body.data.url;
}

export async function ledgerIntegrity() {
  return expectOk(await call('GET', '/v1/operator/ledger/integrity', { key: operatorKey() }));
}

export async function expectLedgerBalanced() {
  const report = await ledgerIntegrity();
  expect(report).toMatchObject({ balanced: true, ledger_sum_kobo: 0, unbalanced_transfers: [], accounts_not_matching_entries: [], negative_accounts: [] });
}

/** Everything a failed request could have touched, as the API shows it. */
export async function snapshot(client: TestClient, deal: { transaction: { id: string }; buyer: { id: string }; seller: { id: string } }) {
  const [transaction, buyerWallet, sellerWallet, disputes] = await Promise.all([
    call('GET', `/v1/transactions/${deal.transaction.id}`, { key: client.secretKey }),
    call('GET', `/v1/wallets/${deal.buyer.id}`, { key: client.secretKey }),
    call('GET', `/v1/wallets/${deal.seller.id}`, { key: client.secretKey }),
    call('GET', '/v1/dispute?limit=100', { key: client.secretKey }),
  ]);
  const logs = await Promise.all(
    (transaction.body.data.milestones as Array<{ id: string }>).map((m) => call('GET', `/v1/milestones/${m.id}`, { key: client.secretKey })),
  );
  return JSON.stringify([transaction.body, buyerWallet.body, sellerWallet.body, disputes.body, logs.map((l) => l.body.data.milestone_logs)]);
}
