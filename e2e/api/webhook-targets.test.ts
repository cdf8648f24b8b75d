/**
 * Webhook targets (issue #22 item 2): a server started as a hosted service is (without
 * ESCROW_WEBHOOKS_ALLOW_PRIVATE) refuses loopback, private, link-local and reserved targets for every
 * client, at registration and on the address a delivery would connect to, and its delivery log does
 * not tell an open port from a closed one. Plain http: never for live keys; for test keys only with the
 * switch, to a private address. The switch never opens private targets to a live client (issue #58 item 8).
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { lookup } from 'node:dns/promises';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ipaddr from 'ipaddr.js';
import type { TestServer } from '../support/test-server';
import { restartableStore, type RestartableStore } from './support/restartable-store';
import { baseUrl, call, expectError, expectOk, operatorKey } from './support/api';

const NO_SWITCH = { ESCROW_WEBHOOKS_ALLOW_PRIVATE: '0', ESCROW_WEBHOOK_POLL_MS: '50' };
const WITH_SWITCH = { ESCROW_WEBHOOKS_ALLOW_PRIVATE: '1', ESCROW_WEBHOOK_POLL_MS: '50' };

/** The probe's addresses, and the other non-public ranges ipaddr.js names. */
const PROBES = [
  'http://127.0.0.1:9/x',
  'http://localhost:9/x',
  'http://[::1]:9/x',
  'http://2130706433:9/x',
  'http://127.1:9/x',
  'http://0x7f000001:9/x',
  'https://127.0.0.1/x',
  'https://2130706433/x',
  'https://0177.0.0.1/x',
  'https://127.0.0.1./x',
  'https://localhost/x',
  'https://LOCALHOST./x',
  'https://hooks.localhost/x',
  'https://[::1]/x',
  'https://[::ffff:127.0.0.1]/x',
  'https://10.0.0.8/x',
  'https://172.16.5.4/x',
  'https://192.168.1.10/x',
  'https://169.254.169.254/latest/meta-data/',
  'https://100.64.0.1/x',
  'https://0.0.0.0/x',
  'https://[::]/x',
  'https://[fd00::1]/x',
  'https://[fe80::1]/x',
  'https://224.0.0.1/x',
  'https://255.255.255.255/x',
];

async function api(server: { baseUrl: string }, method: string, path: string, key: string, body?: unknown) {
  return call(method, path, { key, body, baseUrl: server.baseUrl });
}

async function newClientWithId(server: { baseUrl: string }, opKey: string, mode: 'test' | 'live') {
  const data = expectOk(await api(server, 'POST', '/v1/operator/clients', opKey, { name: `Targets ${randomUUID().slice(0, 8)}`, mode }));
  return { id: data.id as string, key: data.secret_key as string };
}

async function newClient(server: { baseUrl: string }, opKey: string, mode: 'test' | 'live') {
  return (await newClientWithId(server, opKey, mode)).key;
}

/** Sends the endpoint a test event and waits for the delivery's first attempt: its recorded error. */
async function firstAttemptError(server: { baseUrl: string }, key: string, endpointId: string): Promise<string> {
  const delivery = expectOk(await api(server, 'POST', `/v1/webhooks/${endpointId}/test`, key));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const log = expectOk(await api(server, 'GET', `/v1/webhooks/${endpointId}/deliveries`, key));
    const d = log.deliveries.find((x: { id: string }) => x.id === delivery.id);
    if (d?.attempts >= 1 && d.last_error) {
      expect(d.last_status_code).toBeNull();
      return d.last_error as string;
    }
    if (Date.now() > deadline) throw new Error(`no attempt at ${endpointId}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A name this machine resolves to a non-public address (its own host name, usually), or undefined. */
async function privateName(): Promise<string | undefined> {
  try {
    const answers = await lookup(os.hostname(), { all: true });
    return answers.length > 0 && answers.every((a) => ipaddr.parse(a.address).range() !== 'unicast') ? os.hostname() : undefined;
  } catch {
    return undefined;
  }
}

type Receiver = { port: number; hits: number; close: () => Promise<void> };
async function startReceiver(): Promise<Receiver> {
  const receiver = { port: 0, hits: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    receiver.hits++;
    req.resume();
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}

/** A TCP listener that counts the connections made to it: a TLS handshake or a request would need one first. */
async function startConnectionCounter(): Promise<Receiver> {
  const counter = { port: 0, hits: 0, close: async () => {} };
  const server = net.createServer((socket) => {
    counter.hits++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  counter.port = (server.address() as AddressInfo).port;
  counter.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return counter;
}

async function closedPort(): Promise<number> {
  const r = await startReceiver();
  await r.close();
  return r.port;
}

let store: RestartableStore;
let server: TestServer | undefined;

beforeAll(async () => {
  store = await restartableStore();
  server = await store.start(NO_SWITCH);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await store?.remove();
});

describe('registration on a server without ESCROW_WEBHOOKS_ALLOW_PRIVATE', () => {
  it('refuses every loopback, private, link-local and reserved target (400), for test and live keys alike', async () => {
    for (const mode of ['test', 'live'] as const) {
      const key = await newClient(server!, server!.operatorKey, mode);
      for (const url of PROBES) {
        const error = expectError(await api(server!, 'POST', '/v1/webhooks', key, { url }), 400, 'VALIDATION_ERROR');
        expect(error.errors?.map((e) => e.field), `${mode} ${url}`).toContain('url');
      }
      const listed = expectOk(await api(server!, 'GET', '/v1/webhooks', key));
      expect(listed.webhooks).toEqual([]);
    }
  });

  it('refuses a DNS name that resolves to such an address (judged on its addresses, not its spelling)', async () => {
    const name = await privateName();
    if (!name) return; // this machine's name resolves to a public address: nothing to probe with
    const key = await newClient(server!, server!.operatorKey, 'test');
    const error = expectError(await api(server!, 'POST', '/v1/webhooks', key, { url: `https://${name}/x` }), 400, 'VALIDATION_ERROR');
    expect(error.message).toMatch(/public address/);
  });

  it('refuses plain http even to a public host, and takes https to one', async () => {
    const key = await newClient(server!, server!.operatorKey, 'test');
    expectError(await api(server!, 'POST', '/v1/webhooks', key, { url: 'http://example.com/hooks' }), 400, 'VALIDATION_ERROR', /https/);
    expectError(await api(server!, 'POST', '/v1/webhooks', key, { url: 'http://93.184.215.14/hooks' }), 400, 'VALIDATION_ERROR', /https/);
    const created = expectOk(await api(server!, 'POST', '/v1/webhooks', key, { url: 'https://93.184.215.14/hooks' }));
    expect(created.url).toBe('https://93.184.215.14/hooks');
    expectOk(await api(server!, 'DELETE', `/v1/webhooks/${created.id}`, key));
  });
});

describe('registration with the switch (the suite shared server)', () => {
  it('takes loopback and private targets for test keys (plain http too), never for live keys', async () => {
    const test = await newClient({ baseUrl: baseUrl() }, operatorKey(), 'test');
    const live = await newClient({ baseUrl: baseUrl() }, operatorKey(), 'live');
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://[::1]:9/x', 'https://10.0.0.8/x']) {
      const created = expectOk(await api({ baseUrl: baseUrl() }, 'POST', '/v1/webhooks', test, { url }));
      expectOk(await api({ baseUrl: baseUrl() }, 'DELETE', `/v1/webhooks/${created.id}`, test));
    }
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://10.0.0.8/x']) {
      expectError(await api({ baseUrl: baseUrl() }, 'POST', '/v1/webhooks', live, { url }), 400, 'VALIDATION_ERROR', /must reach a public address/);
    }
    // Plain http to a public host: never with a live key.
    expectError(await api({ baseUrl: baseUrl() }, 'POST', '/v1/webhooks', live, { url: 'http://93.184.215.14/hooks' }), 400, 'VALIDATION_ERROR', /live keys never send over plain http/);
    // The switch is for private receivers: plain http to a public host is still refused.
    expectError(await api({ baseUrl: baseUrl() }, 'POST', '/v1/webhooks', test, { url: 'http://93.184.215.14/hooks' }), 400, 'VALIDATION_ERROR', /https/);
    // The unspecified address is never a receiver.
    expectError(await api({ baseUrl: baseUrl() }, 'POST', '/v1/webhooks', test, { url: 'https://0.0.0.0/x' }), 400, 'VALIDATION_ERROR');
  });
});

describe('at connect time: targets registered while allowed, delivered by a server without the switch', () => {
  it('refuses each before connecting, with the same policy message for an open port and a closed one', async () => {
    const receiver = await startReceiver();
    const closed = await closedPort();
    const name = (await privateName()) ?? 'localhost';
    // Registered on this database by a server that allowed them (local development, say).
    await server!.stop();
    server = await store.start(WITH_SWITCH);
    const key = await newClient(server, server.operatorKey, 'test');
    const urls = [
      `http://127.0.0.1:${receiver.port}/open`,
      `http://127.0.0.1:${closed}/closed`,
      // A name resolving to loopback, over https: only the resolved address can tell.
      `https://${name}:${receiver.port}/open`,
      `https://${name}:${closed}/closed`,
    ];
    const hooks: string[] = [];
    for (const url of urls) hooks.push(expectOk(await api(server, 'POST', '/v1/webhooks', key, { url })).id);
    // The same data, now served as a hosted service.
    await server.stop();
    server = await store.start(NO_SWITCH);
    const errors: string[] = [];
    for (const id of hooks) errors.push(await firstAttemptError(server, key, id));
    expect(receiver.hits).toBe(0);
    for (const error of errors) expect(error).toMatch(/^refused by policy, not sent: /);
    // Open and closed ports read the same.
    expect(errors[0]).toBe(errors[1]);
    expect(errors[2]).toBe(errors[3]);
    if (name !== 'localhost') expect(errors[2]).toMatch(/resolves to a loopback, private, link-local or reserved address/);
    expect(errors.join(' ')).not.toMatch(/ECONNREFUSED|EPROTO|ssl|certificate|socket/i);
    await receiver.close();
  }, 120_000);
});

describe('the switch is for test-mode clients: a live client never reaches a private address', () => {
  it('refuses a live client loopback, private and link-local targets at registration, with the switch on, and nothing connects', async () => {
    const listener = await startConnectionCounter();
    const live = await newClient({ baseUrl: baseUrl() }, operatorKey(), 'live');
    const name = await privateName();
    const urls = [
      `https://127.0.0.1:${listener.port}/hooks`,
      `https://localhost:${listener.port}/hooks`,
      `https://[::1]:${listener.port}/hooks`,
      'https://10.0.0.8/hooks',
      'https://169.254.169.254/latest/meta-data/',
      ...(name ? [`https://${name}:${listener.port}/hooks`] : []),
    ];
    for (const url of urls) expectError(await api({ baseUrl: baseUrl() }, 'POST', '/v1/webhooks', live, { url }), 400, 'VALIDATION_ERROR', /must reach a public address/);
    expect(expectOk(await api({ baseUrl: baseUrl() }, 'GET', '/v1/webhooks', live)).webhooks).toEqual([]);
    expect(listener.hits).toBe(0);
    await listener.close();
  });

  it('refuses, before connecting, a loopback endpoint kept by a client that has since gone live', async () => {
    const listener = await startConnectionCounter();
    const name = (await privateName()) ?? 'localhost';
    await server!.stop();
    server = await store.start(WITH_SWITCH);
    const client = await newClientWithId(server, server.operatorKey, 'test');
    const urls = [`https://127.0.0.1:${listener.port}/hooks`, `https://${name}:${listener.port}/hooks`];
    const hooks: string[] = [];
    for (const url of urls) hooks.push(expectOk(await api(server, 'POST', '/v1/webhooks', client.key, { url })).id);
    await server.stop();
    await store.query(`update clients set mode = 'live' where id = $1`, [client.id]);
    server = await store.start(WITH_SWITCH);
    for (const id of hooks) expect(await firstAttemptError(server, client.key, id)).toMatch(/^refused by policy, not sent: /);
    expect(listener.hits).toBe(0);
    await listener.close();
  }, 120_000);
});
