/**
 * Authentication and client isolation for every operation the API app defines (support/operations.ts): the list
 * drives the tests, and each operation is sent with real ids from a deal this file builds (a
 * transaction whose first milestone is in dispute, a saved bank account and an uploaded file).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ErrorEnvelope } from '@/lib/contracts/common';
import { OPERATIONS, type Operation } from './support/operations';
import { openDispute, returnRejectedDeal } from './support/staging';
import { baseUrl, call, expectError, expectOk, inDays, newClient, newDeal, operatorKey, snapshot, uploadProof, type ApiResponse, type TestClient } from './support/api';

type Ids = {
  user: string;
  seller: string;
  transaction: string;
  milestone: string;
  dispute: string;
  file: string;
  webhook: string;
  delivery: string;
  bankAccount: string;
  payout: string;
  checkout: string;
  email: string;
  event: string;
  arbitration?: string;
  /** A client of this file's own (the arbiter), for the operator's client update. */
  client?: string;
};
type Request = { method: string; path: string; query: string; body?: unknown; multipart?: boolean };

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const GTBANK = { account_number: '0016563228', bank_code: '058' };

const clientOps = OPERATIONS.filter((op) => op.auth === 'client');
const operatorOps = OPERATIONS.filter((op) => op.auth === 'operator');
const jsonBodyOps = OPERATIONS.filter((op) => op.body && !op.multipart);
const pathIdOps = OPERATIONS.filter((op) => /\{[a-z_]+\}/.test(op.path));

/** A body the owner could send: valid for the operation's schema, naming the deal's records. */
function bodyFor(op: Operation, ids: Ids): unknown {
  const fileUrl = `${baseUrl()}/v1/files/${ids.file}`;
  switch (op.id) {
    case 'createClient':
      return { name: 'Isolation probe' };
    case 'createUser':
      return { first_name: 'Probe', last_name: 'User', email: `probe.${randomUUID()}@example.com` };
    case 'createTransaction':
      return {
        title: 'Probe deal',
        description: 'Made by the isolation test',
        buyer_id: ids.user,
        seller_id: ids.seller,
        milestones: [{ title: 'One', description: 'Work', amount: 500, due_date: inDays(10) }],
      };
    case 'fundMilestone':
    case 'approveDelivery':
      return { buyer_id: ids.user };
    case 'deliverMilestone':
      return { seller_id: ids.seller, proofs_of_completion: [fileUrl] };
    case 'rejectDelivery':
      return { buyer_id: ids.user, rejection_reason: 'Not as described', proofs_of_return: [fileUrl] };
    case 'approveReturn':
    case 'disapproveReturn':
    case 'acceptPartialAcceptance':
    case 'declinePartialAcceptance':
      return { seller_id: ids.seller };
    case 'refundMilestone':
      return { seller_id: ids.seller, amount: 100, reason: 'Probe refund' };
    case 'proposePartialAcceptance':
      return { buyer_id: ids.user, release_amount: 100, reason: 'Probe proposal' };
    case 'createDispute':
      return { description: 'Probe dispute', buyer_id: ids.user, seller_id: ids.seller, milestone_id: ids.milestone };
    case 'addDisputeAmount':
      return { dispute_amount: 100, seller_id: ids.seller };
    case 'approveDisputeAmount':
      return { buyer_id: ids.user };
    case 'rejectDisputeAmount':
      return { buyer_id: ids.user, reason: 'Too much' };
    case 'escalateDispute':
      return { buyer_id: ids.user };
    case 'submitEvidence':
      return { buyer_id: ids.user, text: 'Photos of the item as it arrived', files: [fileUrl] };
    case 'cancelDispute':
      return { seller_id: ids.seller, cancellation_agreement_details: 'Settled between the parties' };
    case 'cancelTransaction':
    case 'terminateTransaction':
      return { buyer_id: ids.user, reason: 'Isolation probe' };
    case 'approveCancellation':
    case 'declineCancellation':
      return { buyer_id: ids.user };
    case 'rateTransaction':
      return { buyer_id: ids.user, score: 5 };
    case 'counterOffer':
      return { buyer_id: ids.user, amount: 100 };
    case 'acceptCounterOffer':
      return { seller_id: ids.seller };
    case 'requestExtension':
      return { seller_id: ids.seller, due_date: new Date(Date.now() + 30 * 86_400_000).toISOString(), reason: 'Isolation probe' };
    case 'approveExtension':
    case 'declineExtension':
      return { buyer_id: ids.user };
    case 'extendEvidenceWindow':
      return { buyer_id: ids.user, reason: 'Isolation probe' };
    case 'decideVerdict':
      return { seller_amount: 400, reason: 'The delivery matched the contract in part' };
    case 'advanceTestClock':
      return { days: 1 };
    case 'fundWallet':
      return { user_id: ids.user, amount: 100 };
    case 'saveBankAccount':
      return { ...GTBANK, user_id: ids.user };
    case 'validateBankAccount':
      return { ...GTBANK };
    case 'createWebhook':
      return { url: 'https://127.0.0.1:9/escrow-hooks' };
    case 'rollKey':
      return { expires_in_hours: 24 };
    case 'createPayout':
      return { user_id: ids.user, amount: 1, bank_account_id: ids.bankAccount };
    case 'failPayout':
    case 'reversePayout':
    case 'failCheckout':
      return { reason: 'Isolation probe' };
    case 'createCheckout':
      return { buyer_id: ids.user, amount: 10 };
    case 'updateSettings':
      return { auto_payout: false };
    case 'updateClient':
      return { auto_payout: false };
    case 'updateUser':
      return { first_name: 'Probe', is_active: false };
    case 'updateTransaction':
      return { metadata: { probe: 'isolation' } };
    case 'replayWebhook':
      return {};
    default:
      throw new Error(`No request body recipe for ${op.id}: add one to auth-and-isolation.test.ts`);
  }
}

function queryFor(op: Operation, ids: Ids): string {
  switch (op.id) {
    case 'listUsers':
      return '?page=1&limit=100&sort=DESC';
    case 'listTransactions':
      return `?user_id=${ids.user}`;
    case 'listDisputes':
      return `?milestone_id=${ids.milestone}`;
    case 'listBankAccounts':
      return `?user_id=${ids.user}`;
    case 'operatorDisputes':
      return '?status=ARBITRATION&page=1&limit=10';
    case 'listEvents':
      return `?transaction_id=${ids.transaction}`;
    case 'listPayouts':
    case 'listCheckouts':
      return `?user_id=${ids.user}`;
    default:
      if (op.query && Object.values(op.query.shape).some((s) => !(s as { safeParse: (v: unknown) => { success: boolean } }).safeParse(undefined).success)) {
        throw new Error(`No query recipe for ${op.id}: add one to auth-and-isolation.test.ts`);
      }
      return '';
  }
}

function pathFor(op: Operation, ids: Ids, override?: string): string {
  return op.path.replace(/\{([a-z_]+)\}/g, (_m, name: string) => {
    if (override !== undefined) return override;
    if (name === 'user_id') return ids.user;
    if (op.path.startsWith('/v1/users/')) return ids.user;
    if (op.path.startsWith('/v1/transactions/')) return ids.transaction;
    if (op.path.startsWith('/v1/milestones/')) return ids.milestone;
    if (op.path.startsWith('/v1/dispute/')) return ids.dispute;
    // A verdict needs a dispute in ARBITRATION (of a client of its own: see beforeAll).
    if (op.path.startsWith('/v1/operator/disputes/')) return op.id === 'decideVerdict' ? (ids.arbitration ?? ids.dispute) : ids.dispute;
    if (op.path.startsWith('/v1/files/') || op.path.startsWith('/v1/operator/files/')) return ids.file;
    if (name === 'delivery_id') return ids.delivery;
    if (op.path.startsWith('/v1/webhooks/')) return ids.webhook;
    if (op.path.startsWith('/v1/payouts/') || op.path.startsWith('/v1/test-helpers/payouts/')) return ids.payout;
    if (op.path.startsWith('/v1/checkouts/') || op.path.startsWith('/v1/test-helpers/checkouts/')) return ids.checkout;
    if (op.path.startsWith('/v1/wallets/banks/disbursement/')) return ids.bankAccount;
    if (op.path.startsWith('/v1/emails/')) return ids.email;
    if (op.path.startsWith('/v1/events/')) return ids.event;
    if (op.path.startsWith('/v1/operator/clients/')) return ids.client ?? randomUUID();
    throw new Error(`No id recipe for ${op.path}: add one to auth-and-isolation.test.ts`);
  });
}

function requestFor(op: Operation, ids: Ids, opts: { pathId?: string } = {}): Request {
  return {
    method: op.method.toUpperCase(),
    path: pathFor(op, ids, opts.pathId),
    query: queryFor(op, ids),
    body: op.body ? bodyFor(op, ids) : undefined,
    multipart: op.multipart,
  };
}

async function send(req: Request, key: string | null, extra: { rawBody?: string; contentType?: string } = {}): Promise<ApiResponse> {
  if (req.multipart) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'probe.png');
    const res = await fetch(`${baseUrl()}${req.path}${req.query}`, { method: req.method, headers: key ? { authorization: key } : {}, body: form });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // keep the text
    }
    return { status: res.status, body, headers: res.headers };
  }
  if (extra.rawBody !== undefined) {
    return call(req.method, `${req.path}${req.query}`, { key, rawBody: extra.rawBody, headers: { 'content-type': extra.contentType ?? 'application/json' } });
  }
  if (extra.contentType && req.body !== undefined) {
    return call(req.method, `${req.path}${req.query}`, { key, rawBody: JSON.stringify(req.body), headers: { 'content-type': extra.contentType } });
  }
  return call(req.method, `${req.path}${req.query}`, { key, body: req.body });
}

/** Does the request name any of the owner's records (in the path, the query or the body)? */
function namesOwnerRecords(op: Operation, ids: Ids): boolean {
  const text = JSON.stringify(requestFor(op, ids));
  return Object.values(ids).some((id) => text.includes(id));
}

let owner: TestClient;
let stranger: TestClient;
let arbiter: TestClient;
let ids: Ids;
/** A second dispute in ARBITRATION, for the verdict sent with the operator key as Bearer. */
let spareArbitration: string;
let deal: Awaited<ReturnType<typeof returnRejectedDeal>>;

/** Everything of the owner's that a request could have touched, as the API shows it. */
async function ownerState(): Promise<string> {
  const key = owner.secretKey;
  const [base, users, accounts, dispute, file, history] = await Promise.all([
    snapshot(owner, deal),
    call('GET', '/v1/users?page=1&limit=100&sort=ASC', { key }),
    call('GET', '/v1/wallets/banks/list?limit=100', { key }),
    call('GET', `/v1/dispute/${ids.dispute}`, { key }),
    call('GET', `/v1/files/${ids.file}`, { key }),
    call('GET', `/v1/wallets/${ids.user}/history?limit=100`, { key }),
  ]);
  for (const r of [users, accounts, dispute, file, history]) expect(r.status).toBe(200);
  return JSON.stringify([base, users.body, accounts.body, dispute.body, file.body, history.body]);
}

/**
 * Disputes of `client` in ARBITRATION: escalated, evidence from both parties, then the evidence window
 * lapses on the client's own test clock. Moving a client's clock lapses all its deadlines, so `client`
 * must be one no other test relies on.
 */
async function disputesInArbitration(client: TestClient, count: number): Promise<string[]> {
  const key = client.secretKey;
  const disputeIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const d = await newDeal(client, [1000], { walletFunds: 5000 });
    const [m] = d.milestoneIds;
    const proof = await uploadProof(client);
    expectOk(await call('POST', `/v1/milestones/${m}/fund`, { key, body: { buyer_id: d.buyer.id } }));
    expectOk(await call('POST', `/v1/milestones/${m}/deliver`, { key, body: { seller_id: d.seller.id, proofs_of_completion: [proof] } }));
    expectOk(await call('POST', `/v1/milestones/${m}/reject`, { key, body: { buyer_id: d.buyer.id, rejection_reason: 'Broken', proofs_of_return: [proof] } }));
    expectOk(await call('PATCH', `/v1/milestones/${m}/reject/disapprove`, { key, body: { seller_id: d.seller.id } }));
    const dispute = expectOk(await call('POST', '/v1/dispute/create', { key, body: { description: 'Return refused', buyer_id: d.buyer.id, seller_id: d.seller.id, milestone_id: m } }));
    expectOk(await call('PATCH', `/v1/dispute/${dispute.id}/escalate`, { key, body: { buyer_id: d.buyer.id } }));
    expectOk(await call('POST', `/v1/dispute/${dispute.id}/evidence`, { key, body: { buyer_id: d.buyer.id, text: 'It arrived broken', files: [proof] } }));
    expectOk(await call('POST', `/v1/dispute/${dispute.id}/evidence`, { key, body: { seller_id: d.seller.id, text: 'It left intact' } }));
    disputeIds.push(dispute.id);
  }
  expect(expectOk(await call('POST', '/v1/test-clock/advance', { key, body: { days: 10 } })).offset_ms).toBe(10 * 86_400_000);
  for (const id of disputeIds) expect(expectOk(await call('GET', `/v1/dispute/${id}`, { key })).status).toBe('ARBITRATION');
  return disputeIds;
}

/** What the stranger has: nothing, and a failed request must not give it anything. */
async function strangerState(): Promise<string> {
  const key = stranger.secretKey;
  const [users, transactions, disputes, accounts] = await Promise.all([
    call('GET', '/v1/users?page=1&limit=100&sort=ASC', { key }),
    call('GET', '/v1/transactions?limit=100', { key }),
    call('GET', '/v1/dispute?limit=100', { key }),
    call('GET', '/v1/wallets/banks/list?limit=100', { key }),
  ]);
  return JSON.stringify([users.body, transactions.body, disputes.body, accounts.body]);
}

beforeAll(async () => {
  owner = await newClient();
  stranger = await newClient();
  arbiter = await newClient();
  // Milestone 1 goes all the way to a dispute; milestone 2 waits for funding.
  deal = await returnRejectedDeal(owner, [1000, 2000], { walletFunds: 5000 });
  const key = owner.secretKey;
  const dispute = await openDispute(owner, deal);
  const bankAccount = expectOk(await call('POST', '/v1/wallets/banks/disbursement', { key, body: { ...GTBANK, user_id: deal.buyer.id } }));
  // A payout that has ended (failed), so nothing about it moves while the tests read it.
  const payout = expectOk(await call('POST', '/v1/payouts', { key, body: { user_id: deal.buyer.id, amount: 10 } }));
  expectOk(await call('POST', `/v1/test-helpers/payouts/${payout.id}/fail`, { key, body: {} }));
  // A checkout that has ended (declined), for the same reason.
  const checkout = expectOk(await call('POST', '/v1/checkouts', { key, body: { buyer_id: deal.buyer.id, amount: 10 } }));
  expectOk(await call('POST', `/v1/test-helpers/checkouts/${checkout.id}/fail`, { key, body: {} }));
  // A webhook endpoint with one delivery in its log, then deleted so the log stays as it is while the tests read it.
  const webhook = expectOk(await call('POST', '/v1/webhooks', { key, body: { url: 'http://127.0.0.1:9/escrow-hooks' } }));
  const delivery = expectOk(await call('POST', `/v1/webhooks/${webhook.id}/test`, { key }));
  expectOk(await call('DELETE', `/v1/webhooks/${webhook.id}`, { key }));
  // The buyer's "a delivery awaits your inspection", kept (the test server has no SMTP_URL).
  const [email] = expectOk(await call('GET', '/v1/emails?limit=1', { key })).emails;
  const [event] = expectOk(await call('GET', '/v1/events?limit=1', { key })).events;
  ids = {
    user: deal.buyer.id,
    seller: deal.seller.id,
    transaction: deal.transaction.id,
    milestone: deal.milestoneId,
    dispute: dispute.id,
    file: deal.proof.split('/').pop()!,
    webhook: webhook.id,
    delivery: delivery.id,
    bankAccount: bankAccount.id,
    payout: payout.id,
    checkout: checkout.id,
    email: email.id,
    event: event.id,
    client: arbiter.id,
  };
  [ids.arbitration, spareArbitration] = (await disputesInArbitration(arbiter, 2)) as [string, string];
});

describe('the operations list', () => {
  it('has a request recipe here for every operation, so none goes untested', () => {
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(30);
    const fake: Ids = { user: randomUUID(), seller: randomUUID(), transaction: randomUUID(), milestone: randomUUID(), dispute: randomUUID(), file: randomUUID(), webhook: randomUUID(), delivery: randomUUID(), bankAccount: randomUUID(), payout: randomUUID(), checkout: randomUUID(), email: randomUUID(), event: randomUUID() };
    for (const op of OPERATIONS) expect(() => requestFor(op, fake), op.id).not.toThrow();
  });
});

describe('without a valid client secret key, every client operation is 401 UNAUTHORIZED and changes nothing', () => {
  const keys: Array<{ name: string; key: () => string | null }> = [
    { name: 'no Authorization header', key: () => null },
    { name: 'the public key (pk_test_…)', key: () => owner.publicKey },
    { name: 'the public key as Bearer', key: () => `Bearer ${owner.publicKey}` },
    { name: 'an unknown secret key', key: () => `sk_test_${randomBytes(24).toString('base64url')}` },
    { name: 'a key that is not a key', key: () => 'hello' },
    { name: 'an empty Bearer', key: () => 'Bearer' },
    { name: 'the operator key', key: () => operatorKey() },
    { name: 'the operator key as Bearer', key: () => `Bearer ${operatorKey()}` },
  ];

  it.each(clientOps.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s', async (_name, op) => {
    const before = await ownerState();
    for (const { name, key } of keys) {
      const res = await send(requestFor(op, ids), key());
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(401);
      expect(res.body, name).toMatchObject({ status: false, code: 'UNAUTHORIZED' });
      ErrorEnvelope.parse(res.body);
      expect(JSON.stringify(res.body), name).not.toContain(ids.user);
    }
    expect(await ownerState()).toBe(before);
  });
});

describe('operator routes refuse everything but the operator key', () => {
  it.each(operatorOps.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s', async (_name, op) => {
    const req = requestFor(op, ids);
    for (const [name, key] of [
      ['no key', null],
      ["a client's secret key", owner.secretKey],
      ["a client's secret key as Bearer", `Bearer ${owner.secretKey}`],
      ["a client's public key", owner.publicKey],
      ['an unknown key', `op_test_${randomBytes(16).toString('hex')}`],
    ] as const) {
      const res = await send(req, key);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(401);
      expect(res.body, name).toMatchObject({ status: false, code: 'UNAUTHORIZED' });
      ErrorEnvelope.parse(res.body);
    }
    // The operator key itself works, raw and as Bearer (a verdict is final, so the second is on another dispute). A
    // server on PostgreSQL has no embedded database to copy: its backup operation says what to use instead.
    const succeeds = (res: ApiResponse) =>
      op.id === 'operatorBackup' && inject('database') === 'postgres'
        ? expectError(res, 409, 'INVALID_STATE', /pg_dump/)
        : op.binaryResponse
          ? expect(res.status, JSON.stringify(res.body)).toBe(200)
          : expectOk(res);
    succeeds(await send(req, operatorKey()));
    succeeds(await send(requestFor(op, op.id === 'decideVerdict' ? { ...ids, arbitration: spareArbitration } : ids), `Bearer ${operatorKey()}`));
  });

  it('a client key on POST /v1/operator/clients creates no client', async () => {
    const res = await call('POST', '/v1/operator/clients', { key: owner.secretKey, body: { name: 'Sneaky', mode: 'test' } });
    expectError(res, 401, 'UNAUTHORIZED');
    expect(JSON.stringify(res.body)).not.toMatch(/sk_test_/);
  });
});

describe('Bearer <secret key> is accepted like the raw key', () => {
  const reads = clientOps.filter((op) => op.method === 'get');
  it.each(reads.map((op) => [`GET ${op.path}`, op] as const))('%s answers as with the raw key', async (_name, op) => {
    const req = requestFor(op, ids);
    const raw = await send(req, owner.secretKey);
    const bearer = await send(req, `Bearer ${owner.secretKey}`);
    expect(raw.status, JSON.stringify(raw.body)).toBe(200);
    expect(bearer.status, JSON.stringify(bearer.body)).toBe(200);
    // The test clock's `now` and the overview's `as_of` are the wall clock plus the offset, so they move on between two reads.
    const moving = ({ getTestClock: 'now', reportOverview: 'as_of' } as Record<string, string>)[op.id];
    const steady = (body: { data?: Record<string, unknown> }) => (moving ? { ...body, data: { ...body.data, [moving]: typeof body.data?.[moving] } } : body);
    expect(steady(bearer.body)).toEqual(steady(raw.body));
  });

  // A roll's one field is optional, so an empty body is a valid roll (keys.test.ts has its validation);
  // so is the sandbox payout and checkout helpers' (payouts.test.ts and checkouts.test.ts have theirs), and a replay's
  // from the first event (webhook-replay.test.ts has its validation).
  const writes = clientOps.filter((op) => op.body && !op.multipart && !['rollKey', 'failPayout', 'reversePayout', 'failCheckout', 'replayWebhook'].includes(op.id));
  it.each(writes.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s gets past authentication to validation (an empty body is 400, not 401)',
    async (_name, op) => {
      const before = await ownerState();
      const res = await send({ ...requestFor(op, ids), body: {} }, `Bearer ${owner.secretKey}`);
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(await ownerState()).toBe(before);
    },
  );

  it('creates a user, funds a wallet and uploads a file with Bearer', async () => {
    const client = await newClient();
    const bearer = `Bearer ${client.secretKey}`;
    const user = expectOk(await call('POST', '/v1/users', { key: bearer, body: { first_name: 'Bea', last_name: 'Rer', email: `bea.${randomUUID()}@example.com` } }));
    expect(expectOk(await call('POST', '/v1/wallets/fund', { key: bearer, body: { user_id: user.id, amount: 250 } })).balance).toBe(250);
    expect(expectOk(await call('GET', `/v1/wallets/${user.id}`, { key: client.secretKey })).balance).toBe(250);
    const upload = await send({ method: 'POST', path: '/v1/files', query: '', multipart: true }, bearer);
    expect(expectOk(upload).sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("the sandbox test clock is each client's own", () => {
  it("advancing one client's clock (the arbiter's, by 10 days) moves no other client's", async () => {
    for (const client of [owner, stranger]) expect(expectOk(await call('GET', '/v1/test-clock', { key: client.secretKey })).offset_ms).toBe(0);
    expect(expectOk(await call('GET', '/v1/test-clock', { key: arbiter.secretKey })).offset_ms).toBe(10 * 86_400_000);
  });

  it('a live key reads its clock but cannot move it: 403 LIVE_MODE_FORBIDDEN, and the clock stays', async () => {
    const live = await newClient('live');
    expect(expectOk(await call('GET', '/v1/test-clock', { key: live.secretKey })).offset_ms).toBe(0);
    const res = await call('POST', '/v1/test-clock/advance', { key: live.secretKey, body: { days: 10 } });
    expectError(res, 403, 'LIVE_MODE_FORBIDDEN');
    ErrorEnvelope.parse(res.body);
    expect(expectOk(await call('GET', '/v1/test-clock', { key: live.secretKey })).offset_ms).toBe(0);
  });
});

describe("another client's key on this client's records: 404 NOT_FOUND, exactly as for ids that do not exist, and nothing changes", () => {
  // Which operations name a record is a property of the recipes, so placeholder ids decide it.
  const placeholder: Ids = { user: randomUUID(), seller: randomUUID(), transaction: randomUUID(), milestone: randomUUID(), dispute: randomUUID(), file: randomUUID(), webhook: randomUUID(), delivery: randomUUID(), bankAccount: randomUUID(), payout: randomUUID(), checkout: randomUUID(), email: randomUUID(), event: randomUUID() };
  const opsNamingRecords = clientOps.filter((op) => namesOwnerRecords(op, placeholder));

  it('covers every client operation that names a record by id', () => {
    const names = opsNamingRecords.map((op) => op.id);
    for (const id of ['getUser', 'updateUser', 'getTransaction', 'getMilestone', 'fundMilestone', 'deliverMilestone', 'approveDelivery', 'rejectDelivery', 'approveReturn', 'disapproveReturn', 'refundMilestone', 'proposePartialAcceptance', 'acceptPartialAcceptance', 'declinePartialAcceptance', 'createDispute', 'getDispute', 'addDisputeAmount', 'approveDisputeAmount', 'rejectDisputeAmount', 'fundWallet', 'getWallet', 'walletHistory', 'walletStatement', 'saveBankAccount', 'readFile', 'createTransaction', 'escalateDispute', 'submitEvidence', 'cancelDispute', 'listEvents', 'deleteWebhook', 'rotateWebhookSecret', 'listWebhookDeliveries', 'resendWebhookDelivery', 'testWebhook', 'createPayout', 'listPayouts', 'getPayout', 'failPayout', 'reversePayout', 'createCheckout', 'listCheckouts', 'getCheckout', 'payCheckout', 'failCheckout', 'removeBankAccount', 'resendEmail', 'getEvent']) {
      expect(names).toContain(id);
    }
  });

  it.each(opsNamingRecords.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s', async (_name, op) => {
    const ownerBefore = await ownerState();
    const strangerBefore = await strangerState();

    const foreign = await send(requestFor(op, ids), stranger.secretKey);
    const randomIds: Ids = { user: randomUUID(), seller: randomUUID(), transaction: randomUUID(), milestone: randomUUID(), dispute: randomUUID(), file: randomUUID(), webhook: randomUUID(), delivery: randomUUID(), bankAccount: randomUUID(), payout: randomUUID(), checkout: randomUUID(), email: randomUUID(), event: randomUUID() };
    const unknown = await send(requestFor(op, randomIds), stranger.secretKey);

    const isFilteredList = op.method === 'get' && !/\{/.test(op.path);
    if (isFilteredList && foreign.status === 200) {
      // A list filtered by the owner's id: the stranger sees an empty list, never the owner's records.
      const lists = Object.values(foreign.body.data).filter(Array.isArray);
      expect(lists.length).toBeGreaterThan(0);
      for (const list of lists) expect(list).toEqual([]);
    } else {
      expect(foreign.status, JSON.stringify(foreign.body)).toBe(404);
      expect(foreign.body).toMatchObject({ status: false, code: 'NOT_FOUND' });
      ErrorEnvelope.parse(foreign.body);
    }

    // Indistinguishable from asking about ids that do not exist at all.
    const normalise = (res: ApiResponse, which: Ids) => {
      let text = JSON.stringify({ status: res.status, body: res.body });
      for (const [name, id] of Object.entries(which)) text = text.replaceAll(id, `<${name}>`);
      return text;
    };
    expect(normalise(foreign, ids)).toBe(normalise(unknown, randomIds));

    expect(await ownerState()).toBe(ownerBefore);
    expect(await strangerState()).toBe(strangerBefore);
  });

  it('the stranger never sees the owner in its own lists', async () => {
    const users = expectOk(await call('GET', '/v1/users?page=1&limit=100&sort=DESC', { key: stranger.secretKey }));
    const transactions = expectOk(await call('GET', '/v1/transactions?limit=100', { key: stranger.secretKey }));
    const disputes = expectOk(await call('GET', '/v1/dispute?limit=100', { key: stranger.secretKey }));
    const accounts = expectOk(await call('GET', '/v1/wallets/banks/list?limit=100', { key: stranger.secretKey }));
    const all = JSON.stringify([users, transactions, disputes, accounts]);
    for (const id of Object.values(ids)) expect(all).not.toContain(id);
  });
});

describe("another client's row as a list's cursor (after): 404 NOT_FOUND, exactly as for a cursor that does not exist, and nothing changes", () => {
  /** The client lists that page by cursor, each asked by the stranger about its own records. */
  const cursorOps = clientOps.filter((op) => op.query?.shape.after !== undefined);
  let strangerUser: string;
  let strangerWebhook: string;
  let ownerEntry: string;

  beforeAll(async () => {
    const key = stranger.secretKey;
    // The stranger's own wallet and webhook log, each with a row: its lists answer, until it names the owner's row.
    const webhook = expectOk(await call('POST', '/v1/webhooks', { key, body: { url: 'http://127.0.0.1:9/escrow-hooks' } }));
    strangerWebhook = webhook.id;
    expectOk(await call('POST', `/v1/webhooks/${webhook.id}/test`, { key }));
    expectOk(await call('DELETE', `/v1/webhooks/${webhook.id}`, { key }));
    strangerUser = expectOk(await call('POST', '/v1/users', { key, body: { first_name: 'Stray', last_name: 'Cursor', email: `stray.${randomUUID()}@example.com` } })).id;
    expectOk(await call('POST', '/v1/wallets/fund', { key, body: { user_id: strangerUser, amount: 100 } }));
    [ownerEntry] = expectOk(await call('GET', `/v1/wallets/${ids.user}/history?limit=1`, { key: owner.secretKey })).entries.map((e: { id: string }) => e.id);
  });

  /** The stranger's request of its own list, with `after` when given. */
  function cursorRequest(op: Operation, after?: string): Request {
    const path = op.path.replace('{user_id}', strangerUser).replace('{id}', strangerWebhook);
    const base = op.id === 'listUsers' ? 'page=1&limit=100&sort=DESC' : 'limit=100';
    return { method: 'GET', path, query: `?${base}${after ? `&after=${after}` : ''}` };
  }

  /** A row of the owner's in the same list. */
  const ownerRow = (op: Operation): string =>
    ({
      listUsers: ids.user,
      listTransactions: ids.transaction,
      listDisputes: ids.dispute,
      listBankAccounts: ids.bankAccount,
      listEvents: ids.event,
      listEmails: ids.email,
      listPayouts: ids.payout,
      walletHistory: ownerEntry,
      listWebhookDeliveries: ids.delivery,
    })[op.id] ?? '';

  it('covers every client list that takes a cursor', () => {
    expect(cursorOps.map((op) => op.id).sort()).toEqual(
      ['listUsers', 'listTransactions', 'listDisputes', 'listBankAccounts', 'listEvents', 'listEmails', 'listPayouts', 'walletHistory', 'listWebhookDeliveries'].sort(),
    );
  });

  it.each(cursorOps.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s', async (_name, op) => {
    const ownerBefore = await ownerState();
    const strangerBefore = await strangerState();
    expect(ownerRow(op), `a row of the owner's for ${op.id}`).not.toBe('');

    expectOk(await send(cursorRequest(op), stranger.secretKey));
    const foreign = await send(cursorRequest(op, ownerRow(op)), stranger.secretKey);
    const unknownId = randomUUID();
    const unknown = await send(cursorRequest(op, unknownId), stranger.secretKey);
    expectError(foreign, 404, 'NOT_FOUND');
    ErrorEnvelope.parse(foreign.body);
    expect(JSON.stringify(foreign.body).replaceAll(ownerRow(op), '<after>')).toBe(JSON.stringify(unknown.body).replaceAll(unknownId, '<after>'));

    expect(await ownerState()).toBe(ownerBefore);
    expect(await strangerState()).toBe(strangerBefore);
  });
});

describe('malformed requests', () => {
  it.each(jsonBodyOps.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s: malformed JSON is 400 INVALID_JSON', async (_name, op) => {
    const key = op.auth === 'operator' ? operatorKey() : owner.secretKey;
    const before = await ownerState();
    const res = await send(requestFor(op, ids), key, { rawBody: '{"buyer_id": "' });
    expectError(res, 400, 'INVALID_JSON');
    ErrorEnvelope.parse(res.body);
    expect(await ownerState()).toBe(before);
  });

  it.each(jsonBodyOps.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s: a JSON body sent as text/plain is 415', async (_name, op) => {
    const key = op.auth === 'operator' ? operatorKey() : owner.secretKey;
    const before = await ownerState();
    const res = await send(requestFor(op, ids), key, { contentType: 'text/plain' });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await ownerState()).toBe(before);
  });

  it.each(pathIdOps.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s: a path id that is not a UUID is 400', async (_name, op) => {
    const key = op.auth === 'operator' ? operatorKey() : owner.secretKey;
    const before = await ownerState();
    for (const bad of ['not-a-uuid', '1', `${ids.milestone}0`]) {
      const res = await send(requestFor(op, ids, { pathId: bad }), key);
      expectError(res, 400, 'VALIDATION_ERROR');
      ErrorEnvelope.parse(res.body);
    }
    expect(await ownerState()).toBe(before);
  });
});
