/**
 * A rolling restart (issue #58 item 3; docs/operations.md, "Stopping and rolling restarts"): two servers on one
 * PostgreSQL behind a balancer that sends only to servers whose /readyz says ready, under a write load of escrow
 * lifecycles. Each server in turn gets SIGTERM and is replaced by a new one. No request fails, every acknowledged
 * lifecycle is there once, each server exits 0, the webhook receiver gets every event exactly once and the SMTP server
 * every email exactly once: no delivery or email was cut off half-sent by a stopping dispatcher or sender.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestServer } from '../support/test-server';
import { expectLifecyclesAppliedOnce, send, startLifecycleLoad, summarise } from './support/lifecycle-load';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink';
import { restartableStore, type RestartableStore } from './support/restartable-store';

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

/** What a load balancer does: polls each server's /readyz and sends requests round robin to the ready ones. */
function balancer() {
  const servers = new Map<string, boolean>();
  let turn = 0;
  let polling = true;
  const poll = async () => {
    while (polling) {
      await Promise.all(
        [...servers.keys()].map(async (url) => {
          const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1_000) }).then(
            (r) => r.status === 200,
            () => false,
          );
          if (servers.has(url)) servers.set(url, ready);
        }),
      );
      await sleep(HEALTH_POLL_MS);
    }
  };
  const polled = poll();
  return {
    add: (url: string) => servers.set(url, false),
    remove: (url: string) => servers.delete(url),
    isReady: (url: string) => servers.get(url) === true,
    pick: () => {
      const ready = [...servers].filter(([, ok]) => ok).map(([url]) => url);
      if (ready.length === 0) throw new Error('no server is ready');
      return ready[turn++ % ready.length]!;
    },
    stop: async () => {
      polling = false;
      await polled;
    },
  };
}

async function until(probe: () => boolean, withinMs: number, what: string): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > withinMs) throw new Error(`${what}: not within ${withinMs} ms`);
    await sleep(50);
  }
}

const exitOf = (server: TestServer) =>
  new Promise<number | null>((resolve) => (server.process.exitCode !== null ? resolve(server.process.exitCode) : server.process.once('exit', (code) => resolve(code))));

describe.runIf(inject('database') === 'postgres')('a rolling restart of two servers on one PostgreSQL (runs only with TEST_DATABASE_URL)', () => {
  let store: RestartableStore;
  let sink: SmtpSink;
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
    Object.assign(SERVER_SETTINGS, { SMTP_URL: sink.url, ESCROW_EMAIL_FROM: 'Escrow Desk <desk@escrow.test>', ESCROW_EMAIL_POLL_MS: '100' });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    await store?.remove();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await sink?.close();
  });

  it('loses no request, applies none twice, exits 0 and leaves no webhook or email half-sent', async () => {
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
    await load.stop();
    await balance.stop();

    console.log(`rolling restart: ${JSON.stringify({ ...summarise(load.answers), completed: load.completed.length })}`);
    expect(exits).toEqual([0, 0]);
    expect(load.unexpected).toEqual([]);
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

    // Every email the deals made is sent, once: none left unknown (cut off mid-send) or sent twice.
    const emailsWith = async (status: string) => (await send(serving.baseUrl, key, 'GET', `/v1/emails?status=${status}&limit=1`)).data.pagination.total as number;
    let pendingEmails = -1;
    for (const started = Date.now(); Date.now() - started < 60_000; await sleep(250)) {
      pendingEmails = (await emailsWith('pending')) + (await emailsWith('sending'));
      if (pendingEmails === 0) break;
    }
    expect(pendingEmails, 'emails still waiting a minute after the load').toBe(0);
    const sentEmails = await emailsWith('sent');
    expect(sentEmails).toBeGreaterThanOrEqual(load.completed.length);
    expect({ unknown: await emailsWith('unknown'), failed: await emailsWith('failed') }).toEqual({ unknown: 0, failed: 0 });
    expect(sink.received).toHaveLength(sentEmails);
  }, 240_000);
});
