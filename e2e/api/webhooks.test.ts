/**
 * Events and webhooks (docs/decisions.md §9, §10) against real servers: a receiver on loopback verifies every
 * signature with the same pure function integrators are shown, and sees every event of a full escrow
 * flow exactly once, in sequence order per transaction. Retries, the delivery log, resend, test
 * sends, secret rotation, deletion and client isolation; on PostgreSQL, two app processes on one
 * database deliver each event exactly once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { verifySignature } from '@/lib/escrow/webhook-signature';
import { EventListRecord, WebhookDeliveryListRecord, WebhookEndpointListRecord, WebhookEndpointWithSecretRecord, type EventRecord } from '@/lib/contracts/webhook-records';
import { startServerPair, startTestServer, type TestServer } from '../support/test-server';
import { baseUrl, expectError, expectOk, operatorKey, type ApiResponse } from './support/api';
import { waitFor } from './support/wait-for';

// ---------------------------------------------------------------------------------------------
// Talking to a server (the suite's shared one, or one of this file's own)

type Target = { baseUrl: string; operatorKey: string };
type Client = { id: string; key: string };

const shared = (): Target => ({ baseUrl: baseUrl(), operatorKey: operatorKey() });

async function api<T = any>(target: Target, method: string, path: string, key: string | null, body?: unknown): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${target.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

async function newClientOn(target: Target): Promise<Client> {
  const data = expectOk(await api(target, 'POST', '/v1/operator/clients', target.operatorKey, { name: `Webhooks ${randomUUID().slice(0, 8)}`, mode: 'test' }));
  return { id: data.id, key: data.secret_key };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Deliveries are sent by the background worker, which runs at a lower priority than requests (docs/operations.md): on a
// machine busy with other suites' servers one can wait tens of seconds, which is not what these tests measure.
vi.setConfig({ testTimeout: 90_000 });

// ---------------------------------------------------------------------------------------------
// A receiver on loopback

type Received = {
  at: number;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: { id: string; type: string; created_at: string; sequence: number | null; transaction_id: string | null; data: Record<string, unknown> };
  /** The signature checked when it arrived, with the secrets the receiver held then. */
  verified: boolean;
  signatures: number;
  answered: number;
};

type Receiver = {
  url: string;
  received: Received[];
  /** What the receiver holds to verify with (several during a rotation). */
  secrets: string[];
  answer: (request: Omit<Received, 'answered'>, earlierOfSameEvent: number) => number | Promise<number>;
  /** TCP connections the dispatcher opened to it. */
  connections: number;
  ofEvent: (eventId: string) => Received[];
  close: () => Promise<void>;
};

const receivers: Receiver[] = [];

async function startReceiver(answer: Receiver['answer'] = () => 200): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    received: [],
    secrets: [],
    answer,
    connections: 0,
    ofEvent: (eventId) => receiver.received.filter((r) => r.body.id === eventId),
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const header = req.headers['escrow-signature'] as string | undefined;
      const check = verifySignature({ header, body: raw, secrets: receiver.secrets, nowSeconds: Math.floor(Date.now() / 1000) });
      const entry = {
        at: Date.now(),
        headers: req.headers,
        raw,
        body: JSON.parse(raw),
        verified: check.ok,
        signatures: (header?.match(/v1=/g) ?? []).length,
      };
      const earlier = receiver.received.filter((r) => r.body.id === entry.body.id).length;
      // A slow, uneven receiver: without the per-transaction ordering, later events would overtake earlier ones.
      await sleep(Math.floor(Math.random() * 25));
      const status = await receiver.answer(entry, earlier);
      receiver.received.push({ ...entry, answered: status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'not now');
    });
  });
  server.on('connection', () => receiver.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/escrow-hooks`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  receivers.push(receiver);
  return receiver;
}

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

// ---------------------------------------------------------------------------------------------
// The escrow flow, through the API

const FLOW_TYPES = [
  'transaction.created',
  'milestone.funded',
  'milestone.delivered',
  'milestone.delivery_rejected',
  'milestone.return_rejected',
  'dispute.created',
  'dispute.amount_proposed',
  'dispute.amount_rejected',
  'dispute.amount_proposed',
  'dispute.resolved',
];

async function newUserOn(target: Target, client: Client, first: string) {
  return expectOk(await api(target, 'POST', '/v1/users', client.key, { first_name: first, last_name: 'Hook', email_address: `${first.toLowerCase()}.${randomUUID()}@example.com` }));
}

/**
 * create transaction → fund → deliver → reject → disapprove → dispute → propose → reject amount →
 * propose → approve. `targets` are used in turn, so two app processes can share the work.
 */
async function runFlow(targets: Target[], client: Client): Promise<{ transactionId: string; buyerId: string }> {
  let turn = 0;
  const next = () => targets[turn++ % targets.length]!;
  const step = async (method: string, path: string, body: unknown) => expectOk(await api(next(), method, path, client.key, body));
  const buyer = await newUserOn(next(), client, 'Buyer');
  const seller = await newUserOn(next(), client, 'Seller');
  await step('POST', '/v1/wallets/fund', { user_id: buyer.id, amount: 5000 });
  const transaction = await step('POST', '/v1/transactions', {
    title: 'Hooked deal',
    description: 'A deal whose events go to a webhook',
    buyer_id: buyer.id,
    seller_id: seller.id,
    milestones: [{ title: 'Only', description: 'Work', amount: 1000, due_date: new Date(Date.now() + 10 * 86_400_000).toISOString() }],
  });
  const m = transaction.milestones[0].id as string;
  const proof = 'https://files.example.com/proof.png';
  await step('POST', `/v1/milestones/${m}/fund`, { buyer_id: buyer.id });
  await step('POST', `/v1/milestones/${m}/deliver`, { seller_id: seller.id, proofs_of_completion: [proof] });
  await step('POST', `/v1/milestones/${m}/reject`, { buyer_id: buyer.id, rejection_reason: 'Not as described', proofs_of_return: [proof] });
  await step('PATCH', `/v1/milestones/${m}/reject/disapprove`, { seller_id: seller.id });
  const dispute = await step('POST', '/v1/dispute/create', { description: 'Return refused', buyer_id: buyer.id, seller_id: seller.id, milestone_id: m });
  await step('PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { dispute_amount: 600, seller_id: seller.id });
  await step('PATCH', `/v1/dispute/${dispute.id}/reject-dispute-amount`, { buyer_id: buyer.id, reason: 'Too much' });
  await step('PATCH', `/v1/dispute/${dispute.id}/add-dispute-amount`, { dispute_amount: 400, seller_id: seller.id });
  await step('PATCH', `/v1/dispute/${dispute.id}/approve-dispute-amount`, { buyer_id: buyer.id });
  return { transactionId: transaction.id, buyerId: buyer.id };
}

async function allEvents(target: Target, client: Client, query = ''): Promise<EventRecord[]> {
  const out: EventRecord[] = [];
  for (let page = 1; ; page++) {
    const data = EventListRecord.parse(expectOk(await api(target, 'GET', `/v1/events?limit=100&page=${page}${query}`, client.key)));
    out.push(...data.events);
    if (!data.pagination.hasNextPage) return out;
  }
}

async function registerWebhook(target: Target, client: Client, receiver: Receiver, description?: string) {
  const data = WebhookEndpointWithSecretRecord.parse(expectOk(await api(target, 'POST', '/v1/webhooks', client.key, { url: receiver.url, description })));
  receiver.secrets.push(data.secret!);
  return data;
}

async function deliveriesOf(target: Target, client: Client, webhookId: string, query = '') {
  return WebhookDeliveryListRecord.parse(expectOk(await api(target, 'GET', `/v1/webhooks/${webhookId}/deliveries?limit=100${query}`, client.key)));
}

/** Per transaction, the sequences in the order they arrived: 1..N, each once. */
function expectInSequence(received: Received[], transactionId: string, count: number) {
  const sequences = received.filter((r) => r.body.transaction_id === transactionId).map((r) => r.body.sequence);
  expect(sequences).toEqual(Array.from({ length: count }, (_, i) => i + 1));
}

// ---------------------------------------------------------------------------------------------

describe('registering webhook endpoints', () => {
  let client: Client;
  beforeAll(async () => {
    client = await newClientOn(shared());
  });

  // The suite's servers run with ESCROW_WEBHOOKS_ALLOW_PRIVATE=1 (loopback receivers); webhook-targets.test.ts covers a server without it.
  it('takes https URLs, and plain http (test keys, with the switch) only to a private address', async () => {
    for (const url of ['http://example.com/hooks', 'http://93.184.215.14/hooks', 'http://127.0.0.1.example.com/x', 'ftp://example.com/hooks', 'javascript:alert(1)', 'not a url', 'https://user:pass@example.com/hooks', '']) {
      const res = await api(shared(), 'POST', '/v1/webhooks', client.key, { url });
      const error = expectError(res, 400, 'VALIDATION_ERROR');
      expect(error.errors?.map((e) => e.field), url).toContain('url');
    }
    expectError(await api(shared(), 'POST', '/v1/webhooks', client.key, {}), 400, 'VALIDATION_ERROR', /url is required/);
    for (const url of ['https://hooks.example.com/escrow', 'http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://[::1]:9/x', 'http://10.0.0.8/hooks']) {
      const created = WebhookEndpointWithSecretRecord.parse(expectOk(await api(shared(), 'POST', '/v1/webhooks', client.key, { url, description: 'probe' })));
      expect(created).toMatchObject({ url, description: 'probe', enabled: true, previous_secret_expires_at: null });
      // Nothing is sent to these: delete them at once.
      expectOk(await api(shared(), 'DELETE', `/v1/webhooks/${created.id}`, client.key));
    }
  });

  it('returns the whsec_ secret once; the list never shows it', async () => {
    const receiver = await startReceiver();
    const created = await registerWebhook(shared(), client, receiver, 'Orders service');
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const listed = WebhookEndpointListRecord.parse(expectOk(await api(shared(), 'GET', '/v1/webhooks', client.key)));
    const mine = listed.webhooks.find((w) => w.id === created.id);
    const { secret: _secret, ...withoutSecret } = created;
    expect(mine).toEqual(withoutSecret);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    expectOk(await api(shared(), 'DELETE', `/v1/webhooks/${created.id}`, client.key));
  });
});

describe('a full escrow flow, delivered to a receiver on loopback', () => {
  let client: Client;
  let receiver: Receiver;
  let other: Receiver;
  let webhook: Awaited<ReturnType<typeof registerWebhook>>;
  let otherHook: Awaited<ReturnType<typeof registerWebhook>>;
  let flow: { transactionId: string; buyerId: string };
  let events: EventRecord[];

  beforeAll(async () => {
    client = await newClientOn(shared());
    receiver = await startReceiver();
    other = await startReceiver();
    webhook = await registerWebhook(shared(), client, receiver, 'main');
    otherHook = await registerWebhook(shared(), client, other, 'second');
    flow = await runFlow([shared()], client);
    events = await allEvents(shared(), client);
    await waitFor('every event at both receivers', () => events.every((e) => receiver.ofEvent(e.id).length > 0 && other.ofEvent(e.id).length > 0));
    // Room for a duplicate to show up, if there were one.
    await sleep(1500);
  }, 120_000);

  it('GET /v1/events lists the flow with sequences 1..N, oldest first', async () => {
    const ofFlow = events.filter((e) => e.transaction_id === flow.transactionId);
    expect(ofFlow.map((e) => e.type)).toEqual(FLOW_TYPES);
    expect(ofFlow.map((e) => e.sequence)).toEqual(FLOW_TYPES.map((_, i) => i + 1));
    // The wallet funding belongs to no transaction.
    expect(events.filter((e) => e.transaction_id === null).map((e) => [e.type, e.sequence])).toEqual([['wallet.funded', null]]);
    const times = events.map((e) => e.created_at);
    expect([...times].sort()).toEqual(times);
    const disputeCreated = ofFlow.find((e) => e.type === 'dispute.created')!;
    expect(disputeCreated.dispute_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(disputeCreated.milestone_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(disputeCreated.data).toMatchObject({ actor: 'seller' });
  });

  it('GET /v1/events filters by type and transaction, sorts DESC, pages, and lists after an event id', async () => {
    const ofFlow = events.filter((e) => e.transaction_id === flow.transactionId);
    const proposed = EventListRecord.parse(expectOk(await api(shared(), 'GET', `/v1/events?type=dispute.amount_proposed&transaction_id=${flow.transactionId}`, client.key)));
    expect(proposed.events.map((e) => e.sequence)).toEqual([7, 9]);
    expect(proposed.pagination).toMatchObject({ total: 2, page: 1 });
    const desc = EventListRecord.parse(expectOk(await api(shared(), 'GET', `/v1/events?transaction_id=${flow.transactionId}&sort=DESC`, client.key)));
    expect(desc.events.map((e) => e.sequence)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    const page2 = EventListRecord.parse(expectOk(await api(shared(), 'GET', `/v1/events?transaction_id=${flow.transactionId}&limit=3&page=2`, client.key)));
    expect(page2.events.map((e) => e.sequence)).toEqual([4, 5, 6]);
    expect(page2.pagination).toMatchObject({ total: 10, pageCount: 4, hasNextPage: true, hasPrevPage: true });
    const after = EventListRecord.parse(expectOk(await api(shared(), 'GET', `/v1/events?after=${ofFlow[6]!.id.toUpperCase()}`, client.key)));
    expect(after.events.map((e) => e.sequence)).toEqual([8, 9, 10]);
    expectError(await api(shared(), 'GET', `/v1/events?after=${randomUUID()}`, client.key), 404, 'NOT_FOUND');
    expectError(await api(shared(), 'GET', '/v1/events?type=milestone.exploded', client.key), 400, 'VALIDATION_ERROR');
  });

  it('the receiver verifies every signature and sees every event exactly once, in sequence order', () => {
    expect(receiver.received.length).toBe(events.length);
    for (const r of receiver.received) {
      expect(r.verified, r.raw).toBe(true);
      expect(r.signatures).toBe(1);
      expect(r.answered).toBe(200);
    }
    expect(new Set(receiver.received.map((r) => r.body.id)).size).toBe(events.length);
    expectInSequence(receiver.received, flow.transactionId, FLOW_TYPES.length);
    // The second endpoint gets the same events, signed with its own secret.
    expect(other.received.length).toBe(events.length);
    expect(other.received.every((r) => r.verified)).toBe(true);
    expectInSequence(other.received, flow.transactionId, FLOW_TYPES.length);
  });

  it('each delivery is the event as GET /v1/events shows it, with its id and type in headers', () => {
    for (const r of receiver.received) {
      const event = events.find((e) => e.id === r.body.id)!;
      expect(Object.keys(r.body).sort()).toEqual(['created_at', 'data', 'id', 'sequence', 'transaction_id', 'type']);
      expect(r.body).toEqual({ id: event.id, type: event.type, created_at: event.created_at, sequence: event.sequence, transaction_id: event.transaction_id, data: event.data });
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['escrow-event-id']).toBe(event.id);
      expect(r.headers['escrow-event-type']).toBe(event.type);
      expect(r.headers['escrow-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    }
    // A signature made with the other endpoint's secret does not verify here.
    const sample = receiver.received[0]!;
    expect(verifySignature({ header: sample.headers['escrow-signature'] as string, body: sample.raw, secrets: otherHook.secret!, nowSeconds: Math.floor(Date.now() / 1000) }).ok).toBe(false);
  });

  it('the delivery log shows each delivery succeeded at the first attempt', async () => {
    const log = await deliveriesOf(shared(), client, webhook.id);
    expect(log.pagination.total).toBe(events.length);
    for (const d of log.deliveries) {
      expect(d).toMatchObject({ webhook_id: webhook.id, status: 'succeeded', attempts: 1, last_status_code: 200, last_error: null, next_attempt_at: null });
      expect(d.delivered_at).not.toBeNull();
      const event = events.find((e) => e.id === d.event_id)!;
      expect(d).toMatchObject({ event_type: event.type, transaction_id: event.transaction_id, sequence: event.sequence });
    }
    // Newest first by default; ASC and the status filter work.
    const asc = await deliveriesOf(shared(), client, webhook.id, `&sort=ASC&status=succeeded`);
    expect(asc.deliveries.map((d) => d.id)).toEqual([...log.deliveries].reverse().map((d) => d.id));
    // Each status's total followed its deliveries from pending to succeeded (totals the database keeps).
    expect(asc.pagination.total).toBe(events.length);
    const failed = await deliveriesOf(shared(), client, webhook.id, '&status=failed');
    expect(failed.deliveries).toEqual([]);
    expect(failed.pagination.total).toBe(0);
    expect((await deliveriesOf(shared(), client, webhook.id, '&status=pending')).pagination.total).toBe(0);
  });

  it('a test send goes to that endpoint only, and shows in the log and in the events', async () => {
    const before = other.received.length;
    const delivery = expectOk(await api(shared(), 'POST', `/v1/webhooks/${webhook.id}/test`, client.key));
    expect(delivery).toMatchObject({ webhook_id: webhook.id, event_type: 'webhook.test', status: 'pending', attempts: 0, transaction_id: null, sequence: null });
    const got = await waitFor('the test event', () => receiver.ofEvent(delivery.event_id)[0]);
    expect(got).toMatchObject({ verified: true, body: { type: 'webhook.test', sequence: null, transaction_id: null, data: { webhook_id: webhook.id } } });
    expect(got.headers['escrow-delivery-id']).toBe(delivery.id);
    await sleep(1000);
    expect(other.received.length).toBe(before);
    const log = await waitFor('the test delivery to succeed', async () => {
      const d = (await deliveriesOf(shared(), client, webhook.id)).deliveries.find((x) => x.id === delivery.id);
      return d?.status === 'succeeded' ? d : undefined;
    });
    expect(log).toMatchObject({ attempts: 1, last_status_code: 200 });
    expect((await allEvents(shared(), client, '&type=webhook.test')).map((e) => e.id)).toEqual([delivery.event_id]);
  });

  it('resend sends a delivered event again, now, with the same event id', async () => {
    const log = await deliveriesOf(shared(), client, webhook.id, '&sort=ASC');
    const first = log.deliveries.find((d) => d.sequence === 1)!;
    const resent = expectOk(await api(shared(), 'POST', `/v1/webhooks/${webhook.id}/deliveries/${first.id.toUpperCase()}/resend`, client.key));
    expect(resent).toMatchObject({ id: first.id, status: 'pending', attempts: 1, delivered_at: null });
    await waitFor('the resent event', () => receiver.ofEvent(first.event_id).length === 2);
    const again = receiver.ofEvent(first.event_id)[1]!;
    expect(again.verified).toBe(true);
    expect(again.body).toEqual(receiver.ofEvent(first.event_id)[0]!.body);
    const after = await waitFor('the resend to be recorded', async () => {
      const d = (await deliveriesOf(shared(), client, webhook.id)).deliveries.find((x) => x.id === first.id);
      return d?.status === 'succeeded' ? d : undefined;
    });
    expect(after).toMatchObject({ attempts: 2, last_status_code: 200 });
    expectError(await api(shared(), 'POST', `/v1/webhooks/${webhook.id}/deliveries/${randomUUID()}/resend`, client.key), 404, 'NOT_FOUND');
    // A delivery of the other endpoint is not this endpoint's.
    const othersDelivery = (await deliveriesOf(shared(), client, otherHook.id)).deliveries[0]!;
    expectError(await api(shared(), 'POST', `/v1/webhooks/${webhook.id}/deliveries/${othersDelivery.id}/resend`, client.key), 404, 'NOT_FOUND');
  });

  it('rotation: the new secret once, then every delivery carries two v1= signatures, one per secret', async () => {
    const oldSecret = webhook.secret!;
    const rotated = WebhookEndpointWithSecretRecord.parse(expectOk(await api(shared(), 'POST', `/v1/webhooks/${webhook.id}/rotate-secret`, client.key)));
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(oldSecret);
    const expires = Date.parse(rotated.previous_secret_expires_at!);
    expect(Math.abs(expires - (Date.now() + 86_400_000))).toBeLessThan(60_000);
    const listed = WebhookEndpointListRecord.parse(expectOk(await api(shared(), 'GET', '/v1/webhooks', client.key))).webhooks.find((w) => w.id === webhook.id);
    expect(listed?.previous_secret_expires_at).toBe(rotated.previous_secret_expires_at);
    expect(JSON.stringify(listed)).not.toContain(rotated.secret);

    const delivery = expectOk(await api(shared(), 'POST', `/v1/webhooks/${webhook.id}/test`, client.key));
    const got = await waitFor('the test event after rotation', () => receiver.ofEvent(delivery.event_id)[0]);
    expect(got.signatures).toBe(2);
    const header = got.headers['escrow-signature'] as string;
    const nowSeconds = Math.floor(Date.now() / 1000);
    expect(verifySignature({ header, body: got.raw, secrets: rotated.secret!, nowSeconds }).ok).toBe(true);
    expect(verifySignature({ header, body: got.raw, secrets: oldSecret, nowSeconds }).ok).toBe(true);
    expect(verifySignature({ header, body: got.raw, secrets: otherHook.secret!, nowSeconds }).ok).toBe(false);
    // The other endpoint was not rotated: still one signature.
    const next = await runFlowStep(client, flow.buyerId);
    const otherGot = await waitFor('the wallet funding at the other endpoint', () => other.ofEvent(next)[0]);
    expect(otherGot.signatures).toBe(1);
    webhook = { ...webhook, secret: rotated.secret };
    receiver.secrets.push(rotated.secret!);
  });

  it('delete disables the endpoint: nothing more is sent, pending deliveries are settled unsent, the log stays', async () => {
    const flaky = await startReceiver(() => 503);
    const hook = await registerWebhook(shared(), client, flaky, 'always down');
    const eventId = await runFlowStep(client, flow.buyerId);
    // Attempted once, answered 503, waiting 30 s for its retry.
    const waiting = await waitFor('the first failed attempt', async () => {
      const d = (await deliveriesOf(shared(), client, hook.id)).deliveries.find((x) => x.event_id === eventId);
      return d && d.attempts === 1 && d.last_status_code === 503 ? d : undefined;
    });
    expect(waiting).toMatchObject({ status: 'pending', last_error: 'the endpoint answered HTTP 503' });
    expect(Date.parse(waiting.next_attempt_at!)).toBeGreaterThan(Date.now() + 10_000);

    const deleted = expectOk(await api(shared(), 'DELETE', `/v1/webhooks/${hook.id}`, client.key));
    expect(deleted).toMatchObject({ id: hook.id, enabled: false });
    expect(expectOk(await api(shared(), 'DELETE', `/v1/webhooks/${hook.id}`, client.key))).toMatchObject({ enabled: false });
    const settled = (await deliveriesOf(shared(), client, hook.id)).deliveries.find((d) => d.id === waiting.id);
    expect(settled).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null, last_error: 'not sent: the webhook endpoint was deleted' });

    const before = flaky.received.length;
    await runFlowStep(client, flow.buyerId);
    await sleep(1500);
    expect(flaky.received.length).toBe(before);
    expect((await deliveriesOf(shared(), client, hook.id)).pagination.total).toBe(1);
    expectError(await api(shared(), 'POST', `/v1/webhooks/${hook.id}/test`, client.key), 409, 'INVALID_STATE');
    expectError(await api(shared(), 'POST', `/v1/webhooks/${hook.id}/rotate-secret`, client.key), 409, 'INVALID_STATE');
    expectError(await api(shared(), 'POST', `/v1/webhooks/${hook.id}/deliveries/${waiting.id}/resend`, client.key), 409, 'INVALID_STATE');
    const listed = expectOk(await api(shared(), 'GET', '/v1/webhooks', client.key)).webhooks.find((w: { id: string }) => w.id === hook.id);
    expect(listed).toMatchObject({ enabled: false });
  });

  describe("another client's key", () => {
    let stranger: Client;
    let strangerReceiver: Receiver;
    beforeAll(async () => {
      stranger = await newClientOn(shared());
      strangerReceiver = await startReceiver();
      await registerWebhook(shared(), stranger, strangerReceiver);
    });

    it("gets 404 on every webhook route with this client's ids, exactly as for unknown ids, and changes nothing", async () => {
      const delivery = (await deliveriesOf(shared(), client, webhook.id)).deliveries[0]!;
      const before = JSON.stringify([await api(shared(), 'GET', '/v1/webhooks', client.key), await deliveriesOf(shared(), client, webhook.id)].map((r) => ('body' in r ? r.body : r)));
      const routes = (hook: string, d: string): Array<[string, string]> => [
        ['GET', `/v1/webhooks/${hook}/deliveries`],
        ['DELETE', `/v1/webhooks/${hook}`],
        ['POST', `/v1/webhooks/${hook}/rotate-secret`],
        ['POST', `/v1/webhooks/${hook}/test`],
        ['POST', `/v1/webhooks/${hook}/deliveries/${d}/resend`],
      ];
      const unknownHook = randomUUID();
      const unknownDelivery = randomUUID();
      const foreign = routes(webhook.id, delivery.id);
      const unknown = routes(unknownHook, unknownDelivery);
      for (let i = 0; i < foreign.length; i++) {
        const [method, path] = foreign[i]!;
        const a = await api(shared(), method, path, stranger.key);
        const b = await api(shared(), unknown[i]![0], unknown[i]![1], stranger.key);
        expectError(a, 404, 'NOT_FOUND');
        const normal = (res: ApiResponse, hook: string, d: string) => JSON.stringify(res.body).replaceAll(hook, '<hook>').replaceAll(d, '<delivery>');
        expect(normal(a, webhook.id, delivery.id), `${method} ${path}`).toBe(normal(b, unknownHook, unknownDelivery));
      }
      const after = JSON.stringify([await api(shared(), 'GET', '/v1/webhooks', client.key), await deliveriesOf(shared(), client, webhook.id)].map((r) => ('body' in r ? r.body : r)));
      expect(after).toBe(before);
    });

    it("never sees this client's endpoints or events, nor receives them", async () => {
      const hooks = expectOk(await api(shared(), 'GET', '/v1/webhooks', stranger.key));
      expect(hooks.webhooks).toHaveLength(1);
      expect(JSON.stringify(hooks)).not.toContain(webhook.id);
      const theirs = await allEvents(shared(), stranger);
      expect(theirs).toEqual([]);
      expect(expectOk(await api(shared(), 'GET', `/v1/events?transaction_id=${flow.transactionId}`, stranger.key)).events).toEqual([]);
      expectError(await api(shared(), 'GET', `/v1/events?after=${events[0]!.id}`, stranger.key), 404, 'NOT_FOUND');
      expect(strangerReceiver.received).toEqual([]);
    });
  });
});

/** One more event for the flow's client (a wallet funding); returns its id once recorded. */
let flowTarget: Target | undefined;
async function runFlowStep(client: Client, userId: string): Promise<string> {
  const target = flowTarget ?? shared();
  const before = (await allEvents(target, client, '&type=wallet.funded')).map((e) => e.id);
  expectOk(await api(target, 'POST', '/v1/wallets/fund', client.key, { user_id: userId, amount: 10 }));
  const after = await allEvents(target, client, '&type=wallet.funded');
  return after.find((e) => !before.includes(e.id))!.id;
}

describe('retries, on a server of its own with short backoff', () => {
  let server: TestServer;
  let target: Target;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer({ env: { ESCROW_WEBHOOK_POLL_MS: '50', ESCROW_WEBHOOK_RETRY_BASE_MS: '300', ESCROW_WEBHOOK_RETRY_WINDOW_MS: '20000' } });
    target = { baseUrl: server.baseUrl, operatorKey: server.operatorKey };
    client = await newClientOn(target);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('a receiver answering 500 twice gets retried with growing waits, and the third attempt succeeds', async () => {
    const receiver = await startReceiver((_r, earlier) => (earlier < 2 ? 500 : 200));
    const hook = await registerWebhook(target, client, receiver);
    const delivery = expectOk(await api(target, 'POST', `/v1/webhooks/${hook.id}/test`, client.key));
    await waitFor('three attempts', () => receiver.ofEvent(delivery.event_id).length >= 3);
    const attempts = receiver.ofEvent(delivery.event_id);
    expect(attempts.map((a) => a.answered)).toEqual([500, 500, 200]);
    expect(attempts.every((a) => a.verified)).toBe(true);
    // 300 ms then 600 ms, each ±20 %.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(200);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(450);
    const log = await waitFor('the success in the log', async () => {
      const d = (await deliveriesOf(target, client, hook.id)).deliveries.find((x) => x.id === delivery.id);
      return d?.status === 'succeeded' ? d : undefined;
    });
    expect(log).toMatchObject({ attempts: 3, last_status_code: 200, last_error: null, next_attempt_at: null });
    await sleep(800);
    expect(receiver.ofEvent(delivery.event_id)).toHaveLength(3);
    expectOk(await api(target, 'DELETE', `/v1/webhooks/${hook.id}`, client.key));
  });

  it('while an event is being retried, the later events of its transaction wait: each arrives in sequence order', async () => {
    // Every event's first attempt fails.
    const receiver = await startReceiver((_r, earlier) => (earlier === 0 ? 500 : 200));
    const hook = await registerWebhook(target, client, receiver);
    flowTarget = target;
    try {
      const flow = await runFlow([target], client);
      const events = (await allEvents(target, client, `&transaction_id=${flow.transactionId}`)).map((e) => e.id);
      expect(events).toHaveLength(FLOW_TYPES.length);
      await waitFor('every event delivered', () => events.every((id) => receiver.ofEvent(id).some((r) => r.answered === 200)), 60_000);
      const arrivals = receiver.received.filter((r) => r.body.transaction_id === flow.transactionId);
      // Never an attempt at N+1 before N succeeded: 1, 1, 2, 2, 3, 3 …
      expect(arrivals.map((r) => [r.body.sequence, r.answered])).toEqual(FLOW_TYPES.flatMap((_, i) => [[i + 1, 500], [i + 1, 200]]));
      expectOk(await api(target, 'DELETE', `/v1/webhooks/${hook.id}`, client.key));
    } finally {
      flowTarget = undefined;
    }
  }, 90_000);

  it('a receiver away while events pile up gets each once when back, per transaction in sequence order, over kept-alive connections', async () => {
    let away = true;
    const receiver = await startReceiver(() => (away ? 503 : 200));
    const hook = await registerWebhook(target, client, receiver);
    flowTarget = target;
    try {
      const flows = await Promise.all([runFlow([target], client), runFlow([target], client), runFlow([target], client)]);
      // Only each transaction's first event has been tried: the rest wait behind it.
      await waitFor('each first event tried', () => flows.every((f) => receiver.received.some((r) => r.body.transaction_id === f.transactionId)));
      expect(new Set(receiver.received.filter((r) => r.body.transaction_id !== null).map((r) => r.body.sequence))).toEqual(new Set([1]));
      away = false;
      const delivered = () => receiver.received.filter((r) => r.answered === 200);
      const transactionEvents = () => delivered().filter((r) => r.body.transaction_id !== null);
      await waitFor('every event delivered', () => transactionEvents().length >= flows.length * FLOW_TYPES.length, 60_000);
      await sleep(500);
      for (const flow of flows) expectInSequence(delivered(), flow.transactionId, FLOW_TYPES.length);
      expect(new Set(delivered().map((r) => r.body.id)).size).toBe(delivered().length);
      // A connection per delivery would be one per request; kept alive, a few carry them all.
      expect(receiver.connections).toBeLessThan(receiver.received.length / 3);
      expectOk(await api(target, 'DELETE', `/v1/webhooks/${hook.id}`, client.key));
    } finally {
      flowTarget = undefined;
    }
  }, 120_000);

  it('a receiver that never answers 2xx is given up 3 days (here 20 s) after the event: failed, with the last status', async () => {
    const receiver = await startReceiver(() => 500);
    const hook = await registerWebhook(target, client, receiver);
    const delivery = expectOk(await api(target, 'POST', `/v1/webhooks/${hook.id}/test`, client.key));
    const failed = await waitFor(
      'the delivery to fail',
      async () => {
        const d = (await deliveriesOf(target, client, hook.id, '&status=failed')).deliveries.find((x) => x.id === delivery.id);
        return d;
      },
      40_000,
    );
    expect(failed.attempts).toBeGreaterThanOrEqual(3);
    expect(failed).toMatchObject({ last_status_code: 500, next_attempt_at: null, delivered_at: null });
    expect(failed.last_error).toMatch(/HTTP 500; gave up after \d+ attempts/);
    expect(receiver.ofEvent(delivery.event_id)).toHaveLength(failed.attempts);
  }, 60_000);

  it('an endpoint nobody listens on: the error says why, with no status code', async () => {
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    const hook = WebhookEndpointWithSecretRecord.parse(expectOk(await api(target, 'POST', '/v1/webhooks', client.key, { url })));
    const delivery = expectOk(await api(target, 'POST', `/v1/webhooks/${hook.id}/test`, client.key));
    const tried = await waitFor('an attempt', async () => {
      const d = (await deliveriesOf(target, client, hook.id)).deliveries.find((x) => x.id === delivery.id);
      return d && d.attempts >= 1 && d.last_error ? d : undefined;
    });
    expect(tried.last_status_code).toBeNull();
    expect(tried.last_error).toMatch(/could not reach the endpoint: ECONNREFUSED/);
    expectOk(await api(target, 'DELETE', `/v1/webhooks/${hook.id}`, client.key));
  });
});

describe.skipIf(inject('database') !== 'postgres')('two app processes on one PostgreSQL', () => {
  let first: TestServer;
  let second: TestServer;
  let pair: Awaited<ReturnType<typeof startServerPair>> | undefined;

  beforeAll(async () => {
    pair = await startServerPair({ ESCROW_WEBHOOK_POLL_MS: '20' });
    ({ first, second } = pair);
  }, 180_000);

  afterAll(async () => {
    await pair?.stop();
  });

  it('deliver each event exactly once, in sequence order per transaction', async () => {
    const a: Target = { baseUrl: first.baseUrl, operatorKey: first.operatorKey };
    const b: Target = { baseUrl: second.baseUrl, operatorKey: first.operatorKey };
    const client = await newClientOn(a);
    const receiver = await startReceiver();
    const hook = await registerWebhook(b, client, receiver);
    const flows = await Promise.all([0, 1, 2, 3].map((i) => runFlow(i % 2 ? [a, b] : [b, a], client)));
    const events = await allEvents(a, client);
    expect(events.length).toBe(4 * (FLOW_TYPES.length + 1));
    await waitFor('every event delivered', () => events.every((e) => receiver.ofEvent(e.id).length > 0), 60_000);
    await sleep(2000);
    for (const e of events) expect(receiver.ofEvent(e.id), e.type).toHaveLength(1);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    for (const flow of flows) expectInSequence(receiver.received, flow.transactionId, FLOW_TYPES.length);
    const log = await deliveriesOf(a, client, hook.id);
    expect(log.deliveries.every((d) => d.status === 'succeeded' && d.attempts === 1)).toBe(true);
    // Both processes took part.
    const sent = (s: TestServer) => s.output().split('\n').filter((line) => line.includes('"msg":"webhook delivery"') && line.includes(hook.id)).length;
    expect(sent(first) + sent(second)).toBe(events.length);
    expect(sent(first)).toBeGreaterThan(0);
    expect(sent(second)).toBeGreaterThan(0);
  }, 120_000);
});
