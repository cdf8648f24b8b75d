/**
 * Webhook replay (docs/decisions.md §19, docs/webhooks.md): POST /v1/webhooks/{id}/replay queues the client's
 * later events again for one endpoint, and a receiver on loopback gets each transaction's in sequence order
 * while new events keep arriving; one replay per endpoint at a time; bad bodies and other clients' ids refused.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';
import { call, expectError, expectOk, type ApiResponse } from './support/api';
import { waitFor } from './support/wait-for';

vi.setConfig({ testTimeout: 120_000 });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Delivered = { id: string; type: string; sequence: number | null; transaction_id: string | null; at: number };

type Receiver = { url: string; received: Delivered[]; holding: boolean; slowMs: number; close: () => Promise<void> };

/** A slow receiver (so a replay takes a while, longer by `slowMs` a request) that answers 503 while `holding`. */
async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', received: [], holding: false, slowMs: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      await sleep(5 + Math.floor(Math.random() * 20) + receiver.slowMs);
      if (receiver.holding) return void res.writeHead(503).end('not now');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      receiver.received.push({ id: body.id, type: body.type, sequence: body.sequence, transaction_id: body.transaction_id, at: Date.now() });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}

let server: TestServer;
const receivers: Receiver[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { ESCROW_WEBHOOK_POLL_MS: '50', ESCROW_WEBHOOK_RETRY_BASE_MS: '200', ESCROW_WEBHOOKS_ALLOW_PRIVATE: '1' } });
}, 180_000);

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await server?.stop();
});

type Client = { id: string; key: string };

const api = <T = any>(client: Client | null, method: string, path: string, body?: unknown): Promise<ApiResponse<T>> =>
  call<T>(method, path, { key: client ? client.key : server.operatorKey, body, baseUrl: server.baseUrl });

async function newClient(): Promise<Client> {
  const data = expectOk(await api(null, 'POST', '/v1/operator/clients', { name: `Replay ${randomUUID().slice(0, 8)}`, mode: 'test' }));
  return { id: data.id, key: data.secret_key };
}

async function register(client: Client): Promise<{ receiver: Receiver; webhookId: string }> {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const endpoint = expectOk(await api(client, 'POST', '/v1/webhooks', { url: receiver.url }));
  return { receiver, webhookId: endpoint.id };
}

/** A deal through funding and delivery: five events of one transaction. */
async function deal(client: Client) {
  const user = async (first: string) => expectOk(await api(client, 'POST', '/v1/users', { first_name: first, last_name: 'Replay', email: `${first}.${randomUUID()}@example.com` }));
  const buyer = await user('buyer');
  const seller = await user('seller');
  expectOk(await api(client, 'POST', '/v1/wallets/fund', { user_id: buyer.id, amount: 10_000 }));
  const t = expectOk(
    await api(client, 'POST', '/v1/transactions', {
      title: 'Replayed deal',
      description: 'Events sent again',
      buyer_id: buyer.id,
      seller_id: seller.id,
      milestones: [1, 2].map((n) => ({ title: `Part ${n}`, description: 'Work', amount: 1000, due_date: new Date(Date.now() + 10 * 86_400_000).toISOString() })),
    }),
  );
  const [m1, m2] = t.milestones.map((m: { id: string }) => m.id) as [string, string];
  expectOk(await api(client, 'POST', `/v1/milestones/${m1}/fund`, { buyer_id: buyer.id }));
  expectOk(await api(client, 'POST', `/v1/milestones/${m1}/deliver`, { seller_id: seller.id, proofs_of_completion: ['https://files.example.com/proof.png'] }));
  // What a later step sends: more events of this transaction while the replay is being delivered.
  const more = async () => {
    expectOk(await api(client, 'POST', `/v1/milestones/${m1}/approve`, { buyer_id: buyer.id }));
    expectOk(await api(client, 'POST', `/v1/milestones/${m2}/fund`, { buyer_id: buyer.id }));
    expectOk(await api(client, 'POST', `/v1/milestones/${m2}/deliver`, { seller_id: seller.id, proofs_of_completion: ['https://files.example.com/proof.png'] }));
  };
  return { transactionId: t.id as string, more };
}

async function eventsOf(client: Client): Promise<{ id: string; type: string; transaction_id: string | null; sequence: number | null; created_at: string }[]> {
  return expectOk(await api(client, 'GET', '/v1/events?limit=100')).events;
}

type Delivery = { event_id: string; status: string; delivered_at: string | null; created_at: string };

const deliveriesOf = async (client: Client, webhookId: string) => expectOk(await api(client, 'GET', `/v1/webhooks/${webhookId}/deliveries?limit=100`)).deliveries as Delivery[];

describe(`webhook replay (${inject('database')})`, () => {
  it("sends every event after the one named again, each transaction in sequence order, while new events keep arriving; the client's other endpoint gets none of it", async () => {
    const client = await newClient();
    const { receiver, webhookId } = await register(client);
    const { receiver: other, webhookId: otherWebhookId } = await register(client);
    const deals = await Promise.all([deal(client), deal(client), deal(client)]);
    const before = await eventsOf(client);
    await waitFor('the first deliveries', () => before.every((e) => receiver.received.some((r) => r.id === e.id) && other.received.some((r) => r.id === e.id)));
    const cursor = before[2]!;
    const later = before.slice(3);

    const replayedFrom = receiver.received.length;
    // Slower answers from here on, so the replay is still going out when the new events are recorded.
    receiver.slowMs = 150;
    const replay = expectOk(await api(client, 'POST', `/v1/webhooks/${webhookId}/replay`, { after_event_id: cursor.id }));
    expect(replay).toEqual({ queued: later.length });
    // New events of the same transactions while the replay is still going out.
    await Promise.all(deals.map((d) => d.more()));
    const after = await eventsOf(client);
    const fresh = after.filter((e) => !before.some((b) => b.id === e.id));
    expect(fresh.length).toBeGreaterThan(0);

    await waitFor('the replay and the new events', () => {
      const since = receiver.received.slice(replayedFrom);
      return [...later, ...fresh].every((e) => since.some((r) => r.id === e.id)) && fresh.every((e) => other.received.some((r) => r.id === e.id));
    });
    await sleep(500);
    const since = receiver.received.slice(replayedFrom);
    // Each replayed and each new event once, nothing at or before the cursor.
    expect(since.map((r) => r.id).sort()).toEqual([...later, ...fresh].map((e) => e.id).sort());
    // Per transaction, strictly in sequence: the replayed events first, then those that arrived meanwhile.
    for (const d of deals) {
      const sequences = since.filter((r) => r.transaction_id === d.transactionId).map((r) => r.sequence!);
      expect(sequences.length).toBeGreaterThan(0);
      expect(sequences).toEqual([...sequences].sort((x, y) => x - y));
      expect(new Set(sequences).size).toBe(sequences.length);
    }

    // The overlap happened: the first new event was recorded before the last replayed delivery had gone out.
    const deliveries = await deliveriesOf(client, webhookId);
    // Each later event has two deliveries to this endpoint: the first as it happened, then the replay's.
    const replayed = later.map((e) => {
      const both = deliveries.filter((d) => d.event_id === e.id).sort((x, y) => x.created_at.localeCompare(y.created_at));
      expect(both).toHaveLength(2);
      return both[1]!;
    });
    const lastReplayedOut = replayed.map((d) => d.delivered_at!).sort().at(-1)!;
    const firstFresh = fresh.map((e) => e.created_at).sort()[0]!;
    expect(firstFresh < lastReplayedOut, `a new event (${firstFresh}) recorded while the replay was pending (last out ${lastReplayedOut})`).toBe(true);

    // The client's other endpoint got each event once, as it happened, and nothing of the replay.
    expect(other.received.map((r) => r.id).sort()).toEqual([...before, ...fresh].map((e) => e.id).sort());
    expect((await deliveriesOf(client, otherWebhookId)).length).toBe(before.length + fresh.length);
  });

  it('since an instant, or from the start with {}: the count is of the events recorded at or after it', async () => {
    const client = await newClient();
    const { receiver, webhookId } = await register(client);
    await deal(client);
    const events = await eventsOf(client);
    await waitFor('the first deliveries', () => events.every((e) => receiver.received.some((r) => r.id === e.id)));
    expect(expectOk(await api(client, 'POST', `/v1/webhooks/${webhookId}/replay`, {}))).toEqual({ queued: events.length });
    await waitFor('the replay', () => receiver.received.length === 2 * events.length);
    const all = expectOk(await api(client, 'GET', '/v1/events?limit=100')).events as { created_at: string }[];
    const since = all[3]!.created_at;
    const expected = all.filter((e) => e.created_at >= since).length;
    expect(expectOk(await api(client, 'POST', `/v1/webhooks/${webhookId}/replay`, { since }))).toEqual({ queued: expected });
  });

  it('one replay per endpoint at a time: a second while the first is still being delivered is 409 REPLAY_IN_PROGRESS, and two at once get one 200 and one 409', async () => {
    const client = await newClient();
    const { receiver, webhookId } = await register(client);
    await deal(client);
    const events = await eventsOf(client);
    await waitFor('the first deliveries', () => events.every((e) => receiver.received.some((r) => r.id === e.id)));
    receiver.holding = true;
    const [one, two] = await Promise.all([api(client, 'POST', `/v1/webhooks/${webhookId}/replay`, {}), api(client, 'POST', `/v1/webhooks/${webhookId}/replay`, {})]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    expectError(one.status === 409 ? one : two, 409, 'REPLAY_IN_PROGRESS', /still being delivered/);
    const queued = (await deliveriesOf(client, webhookId)).length;
    expect(queued).toBe(2 * events.length);
    expectError(await api(client, 'POST', `/v1/webhooks/${webhookId}/replay`, { since: '2020-01-01T00:00:00Z' }), 409, 'REPLAY_IN_PROGRESS');
    // An event that does not exist is named as such, even while the replay runs.
    expectError(await api(client, 'POST', `/v1/webhooks/${webhookId}/replay`, { after_event_id: randomUUID() }), 404, 'NOT_FOUND', /Event/);
    expect((await deliveriesOf(client, webhookId)).length).toBe(queued);
    // Once it has gone out, another may start.
    receiver.holding = false;
    await waitFor('the replay', () => receiver.received.length === 2 * events.length);
    await waitFor('its deliveries settled', async () => {
      const res = await api(client, 'GET', `/v1/webhooks/${webhookId}/deliveries?status=pending&limit=1`);
      return (res.body.data.deliveries as unknown[]).length === 0;
    });
    expect(expectOk(await api(client, 'POST', `/v1/webhooks/${webhookId}/replay`, { after_event_id: events.at(-2)!.id }))).toEqual({ queued: 1 });
  });

  it('refuses bad bodies (400), unknown and other clients\' endpoints and events (404) and a deleted endpoint (409), queuing nothing', async () => {
    const client = await newClient();
    const other = await newClient();
    const { webhookId } = await register(client);
    const { webhookId: othersWebhook } = await register(other);
    await deal(client);
    await deal(other);
    const [event] = await eventsOf(client);
    const [othersEvent] = await eventsOf(other);
    const deliveries = (await deliveriesOf(client, webhookId)).length;
    const replay = (body: unknown, id = webhookId, as = client) => api(as, 'POST', `/v1/webhooks/${id}/replay`, body);

    expectError(await replay({ after_event_id: event!.id, since: '2026-01-01T00:00:00Z' }), 400, 'VALIDATION_ERROR', /not both/);
    expectError(await replay({ after_event_id: 'not-an-id' }), 400, 'VALIDATION_ERROR');
    expectError(await replay({ since: 'yesterday' }), 400, 'VALIDATION_ERROR', /date-time/);
    expectError(await replay({ since: 1_700_000_000 }), 400, 'VALIDATION_ERROR');
    expectError(await replay({ from: 'start' }), 400, 'UNKNOWN_FIELD', /from/);
    expect((await call('POST', `/v1/webhooks/${webhookId}/replay`, { key: client.key, rawBody: '{"since":', headers: { 'content-type': 'application/json' }, baseUrl: server.baseUrl })).status).toBe(400);

    expectError(await replay({}, randomUUID()), 404, 'NOT_FOUND');
    expectError(await replay({}, othersWebhook), 404, 'NOT_FOUND');
    expectError(await replay({ after_event_id: othersEvent!.id }), 404, 'NOT_FOUND', /Event/);
    expect((await deliveriesOf(client, webhookId)).length).toBe(deliveries);

    expectOk(await api(client, 'DELETE', `/v1/webhooks/${webhookId}`));
    expectError(await replay({}), 409, 'INVALID_STATE', /deleted/);
    expect((await deliveriesOf(client, webhookId)).length).toBe(deliveries);
  });
});
