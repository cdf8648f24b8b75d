/**
 * One service from two separate server processes (two ports, one PostgreSQL), as behind a load
 * balancer: a key revoked or a test clock moved through one server holds on the other from the moment
 * the change answers (client-cache.ts: NOTIFY from the change's transaction, and each process's `heard`),
 * and with both servers' background
 * runners and webhook dispatchers racing, a lapse acts once and each event reaches a receiver once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import postgres from 'postgres';
import { onDatabase, startServerPair, type TestServer } from '../support/test-server';
import type { ApiResponse } from './support/api';

/** The name each server process's listening connection goes by (lib/server/client-cache.ts). */
const LISTENER = 'escrow-desk client changes';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function api<T = any>(server: TestServer, method: string, path: string, key: string, body?: unknown): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { authorization: key };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as T, headers: res.headers };
}

async function data<T = any>(server: TestServer, method: string, path: string, key: string, body?: unknown): Promise<T> {
  const res = await api(server, method, path, key, body);
  if (res.status !== 200) throw new Error(`${method} ${path} on ${server.baseUrl} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Asks `probe` every 20 ms until it returns true; the time it took, or undefined if not within `withinMs`. */
async function timeUntil(probe: () => Promise<boolean>, withinMs: number): Promise<number | undefined> {
  const started = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - started;
    if (Date.now() - started > withinMs) return undefined;
    await sleep(20);
  }
}

describe.runIf(inject('database') === 'postgres')('two servers on one PostgreSQL (runs only with TEST_DATABASE_URL: the embedded database is one process)', () => {
  let a: TestServer;
  let b: TestServer;
  let pair: Awaited<ReturnType<typeof startServerPair>> | undefined;

  beforeAll(async () => {
    // One process each: the point is separate servers, which share nothing but the database.
    const env = {
      ESCROW_WORKERS: '1',
      ESCROW_DEADLINE_POLL_MS: '50',
      ESCROW_WEBHOOK_POLL_MS: '50',
      // The loopback receiver below is a private address.
      ESCROW_WEBHOOKS_ALLOW_PRIVATE: '1',
    };
    pair = await startServerPair(env);
    ({ first: a, second: b } = pair);
  }, 180_000);

  afterAll(async () => {
    await pair?.stop();
  });

  const newClient = async (mode: 'test' | 'live' = 'test') => {
    const created = await data(a, 'POST', '/v1/operator/clients', a.operatorKey, { name: `Two servers ${randomUUID().slice(0, 8)}`, mode });
    return { id: created.id as string, key: created.secret_key as string };
  };

  it('a key revoked through one server (roll with expires_in_hours 0) is refused by the other as soon as the roll answers', async () => {
    for (let round = 0; round < 3; round++) {
      const client = await newClient(round === 2 ? 'live' : 'test');
      // The other server has just looked the key up, so it holds it in its cache.
      expect((await api(b, 'GET', '/v1/keys', client.key)).status).toBe(200);
      const rolled = await data(a, 'POST', '/v1/keys/roll', client.key, { expires_in_hours: 0 });
      expect((await api(b, 'GET', '/v1/keys', client.key)).status, 'the old key still worked on the other server after the roll').toBe(401);
      expect((await api(b, 'GET', '/v1/users?page=1&limit=5&sort=DESC', client.key)).body).toMatchObject({ status: false, code: 'UNAUTHORIZED' });
      expect((await api(b, 'GET', '/v1/keys', rolled.secret_key)).status).toBe(200);
      expect((await api(a, 'GET', '/v1/keys', client.key)).status).toBe(401);
    }
  });

  it('a key rolled with an overlap through one server keeps working on the other, which shows its expiry', async () => {
    const client = await newClient();
    expect((await api(b, 'GET', '/v1/keys', client.key)).status).toBe(200);
    const rolled = await data(a, 'POST', '/v1/keys/roll', client.key, { expires_in_hours: 24 });
    const listed = await data(b, 'GET', '/v1/keys', client.key);
    expect(listed.keys.map((k: { expires_at: string | null }) => k.expires_at)).toEqual([null, rolled.previous_keys_expire_at]);
  });

  it('a server whose listening connection is cut forgets what it cached, listens again, and still refuses a key revoked meanwhile', async () => {
    const client = await newClient();
    expect((await api(b, 'GET', '/v1/keys', client.key)).status).toBe(200);
    const cut = await onDatabase(a.databaseUrl!, (sql) => sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${LISTENER} and datname = current_database()`);
    expect(cut.count).toBe(2);
    const rolled = await data(a, 'POST', '/v1/keys/roll', client.key, { expires_in_hours: 0 });
    expect((await api(b, 'GET', '/v1/keys', client.key)).status).toBe(401);
    expect(await timeUntil(async () => b.output().includes('"msg":"listening for client changes again"'), 10_000)).toBeDefined();
    expect(b.output()).toContain('"msg":"not listening for client changes: every request looks its key up until the connection is back"');
    // Listening again, it hears of changes as before.
    expect((await api(b, 'GET', '/v1/keys', rolled.secret_key)).status).toBe(200);
    await data(a, 'POST', '/v1/keys/roll', rolled.secret_key, { expires_in_hours: 0 });
    expect((await api(b, 'GET', '/v1/keys', rolled.secret_key)).status).toBe(401);
  });

  it('a change answers once every listening process has heard it: a slow one holds the answer, a silent one 2 s at most', async () => {
    const client = await newClient();
    // A third listener on the servers' database, as another server's process would be: it says it heard each change late, or never.
    let heardAfterMs: number | undefined = 800;
    const saidHeardAt: number[] = [];
    const peer = postgres(a.databaseUrl!, { max: 1, connection: { application_name: LISTENER }, onnotice: () => undefined });
    const sayer = postgres(a.databaseUrl!, { max: 1, onnotice: () => undefined });
    try {
      await peer.listen('escrow_client_changed', (payload) => {
        const [kind, , changeId] = payload.split(' ');
        if (kind !== 'changed' || !changeId || heardAfterMs === undefined) return;
        setTimeout(() => {
          saidHeardAt.push(Date.now());
          void sayer`select pg_notify('escrow_client_changed', ${`heard ${changeId} test-peer`})`;
        }, heardAfterMs);
      });
      let started = Date.now();
      const rolled = await data(a, 'POST', '/v1/keys/roll', client.key, { expires_in_hours: 0 });
      const answeredAt = Date.now();
      expect(saidHeardAt, 'the roll answered before the slow listener had heard it').toHaveLength(1);
      expect(answeredAt).toBeGreaterThanOrEqual(saidHeardAt[0]!);
      expect(answeredAt - started).toBeGreaterThanOrEqual(heardAfterMs);

      heardAfterMs = undefined;
      started = Date.now();
      expect((await data(b, 'POST', '/v1/test-clock/advance', rolled.secret_key, { days: 1 })).offset_ms).toBe(86_400_000);
      const took = Date.now() - started;
      expect(took, 'a listener that never says it heard holds a change for 2 s').toBeGreaterThanOrEqual(2000);
      expect(took).toBeLessThan(15_000);
      expect((await data(a, 'GET', '/v1/test-clock', rolled.secret_key)).offset_ms).toBe(86_400_000);
    } finally {
      await peer.end();
      await sayer.end();
    }
  });

  it('the test clock advanced through one server is the clock of the other as soon as the move answers', async () => {
    const client = await newClient();
    for (let day = 1; day <= 3; day++) {
      // The other server reads (and caches) the clock just before it moves.
      expect((await data(b, 'GET', '/v1/test-clock', client.key)).offset_ms).toBe((day - 1) * 86_400_000);
      expect((await data(a, 'POST', '/v1/test-clock/advance', client.key, { days: 1 })).offset_ms).toBe(day * 86_400_000);
      expect((await data(b, 'GET', '/v1/test-clock', client.key)).offset_ms, `day ${day}: the other server still had the old clock`).toBe(day * 86_400_000);
    }
  });

  it("lapses settled by both servers' runners act once (one log line, one event), and a receiver gets each event once from both dispatchers", async () => {
    const DEALS = 6;
    const client = await newClient();
    const received: Array<{ id: string; type: string }> = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        // A little slow, so the two dispatchers' polls overlap with sends in flight.
        setTimeout(() => res.writeHead(200).end('ok'), 10 + Math.floor(Math.random() * 20));
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/escrow-hooks`;
      await data(b, 'POST', '/v1/webhooks', client.key, { url, description: 'two servers' });

      // Deals up to inspection, through both servers in turn.
      const milestoneIds: string[] = [];
      for (let i = 0; i < DEALS; i++) {
        const s = i % 2 ? b : a;
        const buyer = await data(s, 'POST', '/v1/users', client.key, { first_name: 'Buyer', last_name: `${i}`, email: `buyer.${randomUUID()}@example.com` });
        const seller = await data(s, 'POST', '/v1/users', client.key, { first_name: 'Seller', last_name: `${i}`, email: `seller.${randomUUID()}@example.com` });
        await data(s, 'POST', '/v1/wallets/fund', client.key, { user_id: buyer.id, amount: 10_000 });
        const t = await data(s, 'POST', '/v1/transactions', client.key, {
          title: `Two servers ${i}`,
          description: 'Lapses with two runners',
          buyer_id: buyer.id,
          seller_id: seller.id,
          milestones: [{ title: 'Only', description: 'Work', amount: 10_000, due_date: new Date(Date.now() + 86_400_000).toISOString(), inspection_duration: 1 }],
        });
        const m = t.milestones[0].id as string;
        await data(s === a ? b : a, 'POST', `/v1/milestones/${m}/fund`, client.key, { buyer_id: buyer.id });
        await data(s, 'POST', `/v1/milestones/${m}/deliver`, client.key, { seller_id: seller.id, proofs_of_completion: ['https://files.example.com/proof.png'] });
        milestoneIds.push(m);
      }

      // Every inspection lapses at once, in real time: both servers' runners (every 50 ms) race for them.
      await onDatabase(a.databaseUrl!, (sql) => sql`update milestones set inspection_end_date = now() - interval '1 second' where client_id = ${client.id}`);
      const completed = await timeUntil(
        async () => (await Promise.all(milestoneIds.map(async (m) => (await data(a, 'GET', `/v1/milestones/${m}`, client.key)).status))).every((s) => s === 'COMPLETED'),
        20_000,
      );
      expect(completed, 'every lapsed inspection accepted').toBeDefined();

      for (const m of milestoneIds) {
        const milestone = await data(b, 'GET', `/v1/milestones/${m}`, client.key);
        const automatic = milestone.milestone_logs.filter((l: { is_automatic: boolean }) => l.is_automatic);
        expect(automatic.map((l: { log_message: string }) => l.log_message)).toEqual([expect.stringMatching(/accepted automatically/)]);
      }
      const events = (await data(a, 'GET', '/v1/events?limit=100', client.key)).events as Array<{ id: string; type: string; milestone_id?: string }>;
      expect(events.filter((e) => e.type === 'milestone.delivery_accepted')).toHaveLength(DEALS);
      const settled = (s: TestServer) =>
        s
          .output()
          .split('\n')
          .filter((l) => l.includes('"msg":"deadlines settled"'))
          .reduce((sum, l) => sum + (JSON.parse(l).acted as number), 0);
      expect(settled(a) + settled(b)).toBe(DEALS);

      // Each event once at the receiver, whichever server's dispatcher sent it.
      const allArrived = await timeUntil(async () => events.every((e) => received.some((r) => r.id === e.id)), 20_000);
      expect(allArrived, 'every event delivered').toBeDefined();
      await sleep(1500);
      const counts = new Map<string, number>();
      for (const r of received) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
      expect([...counts.values()].filter((n) => n > 1), 'events delivered more than once').toEqual([]);
      expect(new Set(received.map((r) => r.id))).toEqual(new Set(events.map((e) => e.id)));
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  }, 120_000);
});
