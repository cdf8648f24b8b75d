/**
 * A rolling restart (issue #58 item 3; docs/operations.md, "Stopping and rolling restarts"): two servers on one
 * PostgreSQL behind a balancer that sends only to servers whose /readyz says ready, under a write load of escrow
 * lifecycles. Each server in turn gets SIGTERM and is replaced by a new one. No request fails, every acknowledged
 * lifecycle is there once, each server exits 0, the webhook receiver gets every event exactly once and the SMTP server
 * every email exactly once: no delivery or email was cut off half-sent by a stopping dispatcher or sender. Alongside,
 * a live client's payees draw payouts through a Paystack-compatible server on loopback: each acknowledged payout is
 * sent to Paystack once (or, cut off mid-send by a stopping server, sent again under the same reference and refused by
 * Paystack as a duplicate) and ends PAID, none is left PROCESSING, and no money leaves twice.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestServer } from '../support/test-server';
import { expectLifecyclesAppliedOnce, send, startLifecycleLoad, summarise } from './support/lifecycle-load';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink';
import { restartableStore, type RestartableStore } from './support/restartable-store';
import { newVerifiedLiveClient } from './support/api';
import { startFakePaystack, type FakePaystack } from '../support/fake-paystack';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const SERVER_SETTINGS: Record<string, string> = {
  // One process each: the point is two servers, each restarted alone.
  ESCROW_WORKERS: '1',
  // Longer than the balancer's health poll, so it has stopped sending before the port closes.
  ESCROW_SHUTDOWN_DELAY_MS: '1500',
  ESCROW_WEBHOOK_POLL_MS: '50',
  ESCROW_WEBHOOKS_ALLOW_PRIVATE: '1',
};
const HEALTH_POLL_MS = 200;
/** As load balancers count it: a server leaves the rotation after this many failed health checks in a row. */
const UNHEALTHY_AFTER = 2;
const PAYOUT_AMOUNT = 100;
const PAYEE_FUNDS = 1_000_000;
/** A NUBAN whose check digit holds for bank 058. */
const PAYEE_ACCOUNT = '0016563228';

type Balancer = ReturnType<typeof balancer>;

/**
 * What a load balancer does: polls each server's /readyz and sends requests round robin to the ready ones. A server
 * leaves the rotation after UNHEALTHY_AFTER failed checks in a row, not after one slow answer on a busy machine, and a
 * 503 from /readyz (a server stopping) takes it out at once; with none ready it sends to all (fails open, as AWS's and
 * Google's balancers do), and the client retries what is refused.
 */
function balancer() {
  const failures = new Map<string, number>();
  let turn = 0;
  let polling = true;
  const poll = async () => {
    while (polling) {
      await Promise.all(
        [...failures.keys()].map(async (url) => {
          const status = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
            (r) => r.status,
            () => 0,
          );
          const failed = status === 200 ? 0 : status === 503 ? UNHEALTHY_AFTER : (failures.get(url) ?? 0) + 1;
          if (failures.has(url)) failures.set(url, failed);
        }),
      );
      await sleep(HEALTH_POLL_MS);
    }
  };
  const polled = poll();
  const isReady = (url: string) => (failures.get(url) ?? UNHEALTHY_AFTER) < UNHEALTHY_AFTER;
  return {
    add: (url: string) => failures.set(url, UNHEALTHY_AFTER),
    remove: (url: string) => failures.delete(url),
    isReady,
    pick: () => {
      const ready = [...failures.keys()].filter(isReady);
      const candidates = ready.length > 0 ? ready : [...failures.keys()];
      return candidates[turn++ % candidates.length]!;
    },
    stop: async () => {
      polling = false;
      await polled;
    },
  };
}

/** The balancer's public address, for callers that are not this test: Paystack's webhooks. */
async function forwardThrough(balance: Balancer): Promise<http.Server> {
  const forwarder = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = { 'content-type': req.headers['content-type'] ?? 'application/json', 'x-paystack-signature': String(req.headers['x-paystack-signature'] ?? '') };
      Promise.resolve()
        .then(() => fetch(`${balance.pick()}${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks), signal: AbortSignal.timeout(10_000) }))
        .then(async (answer) => res.writeHead(answer.status).end(await answer.text()))
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
  return forwarder;
}

/**
 * A live client's payees, each with money in its wallet through Paystack and a saved bank account, and one writer per
 * payee drawing payouts of PAYOUT_AMOUNT until stopped, each retried with its Idempotency-Key while the answer is
 * "try again".
 */
async function startPayoutLoad(server: TestServer, paystack: FakePaystack, target: () => string, payeeCount: number) {
  const client = await newVerifiedLiveClient(server);
  const key = client.secretKey;
  const payees = await Promise.all(
    Array.from({ length: payeeCount }, async (_, p) => {
      const user = (await send(server.baseUrl, key, 'POST', '/v1/users', { first_name: 'Ngozi', last_name: 'Eze', email_address: `payee.${p}.${randomUUID()}@example.com` })).data;
      let account: { account_number: string } | null = null;
      await until(async () => (account = (await send(server.baseUrl, key, 'GET', `/v1/wallets/${user.id}`)).data?.pgA_provider_account_properties ?? null) !== null, 30_000, 'a dedicated account');
      await paystack.creditDedicatedAccount({ accountNumber: account!.account_number, amountKobo: PAYEE_FUNDS * 100 });
      await until(async () => (await send(server.baseUrl, key, 'GET', `/v1/wallets/${user.id}`)).data?.balance === PAYEE_FUNDS, 30_000, 'the funding credited');
      paystack.setAccountName(PAYEE_ACCOUNT, 'NGOZI EZE');
      expect((await send(server.baseUrl, key, 'POST', '/v1/wallets/banks/disbursement', { user_id: user.id, account_number: PAYEE_ACCOUNT, bank_code: '058' })).status).toBe(200);
      return user.id as string;
    }),
  );
  const acknowledged: Array<{ id: string; reference: string; payee: string }> = [];
  const unexpected: string[] = [];
  let running = true;
  const writer = async (payee: string) => {
    while (running) {
      const idempotencyKey = randomUUID();
      for (;;) {
        const answer = await send(target(), key, 'POST', '/v1/payouts', { user_id: payee, amount: PAYOUT_AMOUNT }, idempotencyKey);
        if (answer.status === 200) {
          acknowledged.push({ id: answer.data.id, reference: answer.data.reference, payee });
          break;
        }
        if (answer.status !== 503 && answer.status !== 0) {
          unexpected.push(`POST /v1/payouts: ${answer.status} ${answer.code} ${answer.message}`);
          return;
        }
        await sleep(250);
      }
      await sleep(100);
    }
  };
  const writing = payees.map(writer);
  return {
    key,
    payees,
    acknowledged,
    unexpected,
    stop: async () => {
      running = false;
      await Promise.all(writing);
    },
  };
}

async function until(probe: () => boolean | Promise<boolean>, withinMs: number, what: string): Promise<void> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > withinMs) throw new Error(`${what}: not within ${withinMs} ms`);
    await sleep(50);
  }
}

const exitOf = (server: TestServer) =>
  new Promise<number | null>((resolve) => (server.process.exitCode !== null ? resolve(server.process.exitCode) : server.process.once('exit', (code) => resolve(code))));

describe.runIf(inject('database') === 'postgres')('a rolling restart of two servers on one PostgreSQL (runs only with TEST_DATABASE_URL)', () => {
  let store: RestartableStore;
  let sink: SmtpSink;
  let paystack: FakePaystack;
  let forwarder: http.Server | undefined;
  const started: TestServer[] = [];
  const received: string[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id);
      res.writeHead(200).end('ok');
    });
  });

  beforeAll(async () => {
    store = await restartableStore();
    sink = await startSmtpSink();
    paystack = await startFakePaystack();
    Object.assign(SERVER_SETTINGS, {
      SMTP_URL: sink.url,
      ESCROW_EMAIL_FROM: 'Escrow Desk <desk@escrow.test>',
      ESCROW_EMAIL_POLL_MS: '100',
      ESCROW_PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: paystack.secretKey,
      PAYSTACK_BASE_URL: paystack.url,
      ESCROW_PAYOUT_POLL_MS: '100',
      // A webhook sent to a server as it stops is lost, as Paystack's may be: the requery settles it.
      ESCROW_PAYOUT_REQUERY_AFTER_MS: '2000',
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    await store?.remove();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await sink?.close();
    await paystack?.close();
    await new Promise<void>((resolve) => (forwarder ? forwarder.close(() => resolve()) : resolve()));
  });

  it('loses no request, applies none twice, exits 0 and leaves no webhook, email or payout half-sent', async () => {
    const first = await store.start(SERVER_SETTINGS);
    started.push(first);
    const second = await store.start(SERVER_SETTINGS);
    started.push(second);
    const client = (await send(first.baseUrl, first.operatorKey, 'POST', '/v1/operator/clients', { name: `Rolling ${randomUUID().slice(0, 8)}` })).data;
    const key = client.secret_key as string;
    const hook = await send(first.baseUrl, key, 'POST', '/v1/webhooks', { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, description: 'rolling restart' });
    expect(hook.status).toBe(200);

    const balance = balancer();
    balance.add(first.baseUrl);
    balance.add(second.baseUrl);
    await until(() => balance.isReady(first.baseUrl) && balance.isReady(second.baseUrl), 10_000, 'both servers ready');
    forwarder = await forwardThrough(balance);
    paystack.setWebhookUrl(`http://127.0.0.1:${(forwarder.address() as AddressInfo).port}/v1/providers/paystack/webhook`);
    const payouts = await startPayoutLoad(first, paystack, balance.pick, 3);
    const load = await startLifecycleLoad(balance.pick, key, 8);
    await sleep(2_000);

    const exits: Array<number | null> = [];
    for (const old of [first, second]) {
      const exited = exitOf(old);
      old.process.kill('SIGTERM');
      exits.push(await exited);
      balance.remove(old.baseUrl);
      const replacement = await store.start(SERVER_SETTINGS);
      started.push(replacement);
      balance.add(replacement.baseUrl);
      await until(() => balance.isReady(replacement.baseUrl), 10_000, 'the replacement ready');
      await sleep(1_000);
    }
    await sleep(2_000);
    await Promise.all([load.stop(), payouts.stop()]);
    await balance.stop();

    console.log(`rolling restart: ${JSON.stringify({ ...summarise(load.answers), completed: load.completed.length, payouts: payouts.acknowledged.length })}`);
    expect(exits).toEqual([0, 0]);
    expect([...load.unexpected, ...payouts.unexpected]).toEqual([]);
    expect(load.answers.filter((a) => a.status !== 200).map((a) => `${a.server}: ${a.status} ${a.code ?? ''} ${a.message ?? ''}`)).toEqual([]);
    expect(load.completed.length).toBeGreaterThan(8);
    const serving = started.slice(2)[0]!;
    await expectLifecyclesAppliedOnce(serving.baseUrl, serving.operatorKey, key, load);
    for (const server of started) expect(server.output()).not.toMatch(/uncaught|unhandled|"level":"(error|fatal)"/i);

    // Every event the service recorded reaches the receiver once, whichever server's dispatcher sent it.
    const events: string[] = [];
    for (let after: string | null | undefined; ; ) {
      const page = (await send(serving.baseUrl, key, 'GET', `/v1/events?limit=100${after ? `&after=${after}` : ''}`)).data;
      events.push(...(page.events as Array<{ id: string }>).map((e) => e.id));
      after = page.pagination?.nextAfter;
      if (!after || page.events.length === 0) break;
    }
    expect(events.length).toBeGreaterThan(load.completed.length * 4);
    await until(() => events.every((id) => received.includes(id)), 30_000, 'every event delivered');
    await sleep(1_000);
    const counts = new Map<string, number>();
    for (const id of received) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1), 'events delivered more than once').toEqual([]);

    // Every payout is paid before the emails are counted: a payout paid writes its payee's email.
    const payoutsWith = async (status?: string) =>
      (await send(serving.baseUrl, payouts.key, 'GET', `/v1/payouts?limit=1${status ? `&status=${status}` : ''}`)).data.pagination.total as number;
    await until(async () => (await payoutsWith('PAID')) === payouts.acknowledged.length, 30_000, 'every payout paid');

    // Every email the deals and payouts made is sent, once: none left unknown (cut off mid-send) or sent twice.
    const emailsWith = async (status: string) => {
      let total = 0;
      for (const clientKey of [key, payouts.key]) total += (await send(serving.baseUrl, clientKey, 'GET', `/v1/emails?status=${status}&limit=1`)).data.pagination.total as number;
      return total;
    };
    await until(async () => (await emailsWith('pending')) + (await emailsWith('sending')) === 0, 60_000, 'emails still waiting after the load');
    const sentEmails = await emailsWith('sent');
    expect(sentEmails).toBeGreaterThanOrEqual(load.completed.length);
    expect({ unknown: await emailsWith('unknown'), failed: await emailsWith('failed') }).toEqual({ unknown: 0, failed: 0 });
    expect(sink.received).toHaveLength(sentEmails);

    // Every acknowledged payout is one transfer at Paystack and is PAID; none is left with Paystack, none was made twice.
    expect(await payoutsWith()).toBe(payouts.acknowledged.length);
    expect(payouts.acknowledged.length).toBeGreaterThan(payouts.payees.length);
    // A send cut off by a stopping server has an unknown outcome: it may be sent again, with the same reference, and
    // Paystack's duplicate-reference refusal then reads as "already sent". Any other repeat would be a second runner.
    const posts = paystack.requests.filter((r) => r.method === 'POST' && r.path === '/transfer');
    const referenceOf = (r: (typeof posts)[number]) => (r.body as { reference: string }).reference;
    const repeats = posts.filter((r, i) => posts.findIndex((first) => referenceOf(first) === referenceOf(r)) !== i);
    console.log(`payout sends: ${JSON.stringify({ posts: posts.length, repeats: repeats.map((r) => ({ reference: referenceOf(r), answered: r.status })) })}`);
    expect(repeats.filter((r) => r.status !== 400), 'payouts sent to Paystack again and taken as new transfers').toEqual([]);
    expect(paystack.transfers.map((t) => t.reference).sort(), 'one transfer at Paystack per payout').toEqual(payouts.acknowledged.map((p) => p.reference.toLowerCase()).sort());
    for (const payee of payouts.payees) {
      const drawn = payouts.acknowledged.filter((p) => p.payee === payee).length * PAYOUT_AMOUNT;
      expect((await send(serving.baseUrl, payouts.key, 'GET', `/v1/wallets/${payee}`)).data.balance).toBe(PAYEE_FUNDS - drawn);
    }
    const integrity = (await send(serving.baseUrl, serving.operatorKey, 'GET', '/v1/operator/ledger/integrity')).data;
    expect(integrity).toMatchObject({ balanced: true, payouts_in_flight_not_matching: [] });
    expect((await send(serving.baseUrl, serving.operatorKey, 'GET', '/v1/operator/reconciliation')).data.mismatches).toEqual([]);
  }, 300_000);
});
