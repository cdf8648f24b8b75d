/**
 * Health checks and a graceful stop (issue #58 items 2 and 3; docs/operations.md, "Health checks" and "Stopping and
 * rolling restarts"): /readyz turns 503 at SIGTERM while requests are still taken for the delay, the request in flight
 * is answered, the port closes, and the server exits 0 with its database closed (the next server opens the same data).
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AS_DEPLOYED, type TestServer } from '../support/test-server';
import { restartableStore, type RestartableStore } from './support/restartable-store';
import { call, expectOk } from './support/api';

let store: RestartableStore;
let server: TestServer | undefined;

beforeAll(async () => {
  store = await restartableStore();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await store?.remove();
});

async function newClientKey(at: TestServer): Promise<string> {
  return expectOk(await call('POST', '/v1/operator/clients', { key: at.operatorKey, baseUrl: at.baseUrl, body: { name: `Shutdown ${randomUUID().slice(0, 8)}` } })).secret_key;
}

/** A POST whose body arrives in two halves: in flight from the first half until `finish` sends the rest. */
function halfSent(at: TestServer, key: string, body: unknown) {
  const text = JSON.stringify(body);
  const half = Math.floor(text.length / 2);
  const url = new URL('/v1/users', at.baseUrl);
  let finishBody = () => {};
  const answered = new Promise<{ status: number; body: any }>((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent: false, headers: { authorization: key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } }, (response) => {
      let received = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (received += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(received) }));
    });
    request.on('error', reject);
    request.write(text.slice(0, half));
    finishBody = () => request.end(text.slice(half));
  });
  return { answered, finish: () => finishBody() };
}

const exited = (at: TestServer) =>
  new Promise<number | null>((resolve) => (at.process.exitCode !== null ? resolve(at.process.exitCode) : at.process.once('exit', (code) => resolve(code))));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('health checks', () => {
  it('/healthz and /readyz answer 200 without a key, with nothing in them but their status', async () => {
    server = await store.start(AS_DEPLOYED);
    const alive = await fetch(`${server.baseUrl}/healthz`);
    expect(alive.status).toBe(200);
    expect(await alive.json()).toEqual({ status: 'alive' });
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({ status: 'ready' });
    await server.stop();
    server = undefined;
  }, 120_000);
});

describe('SIGTERM', () => {
  it('turns /readyz 503 first, takes requests for the delay, answers the one in flight, then closes the port and exits 0', async () => {
    server = await store.start({ ...AS_DEPLOYED, ESCROW_SHUTDOWN_DELAY_MS: '1500' });
    const at = server;
    const key = await newClientKey(at);
    const email = `inflight.${randomUUID()}@example.com`;
    const inFlight = halfSent(at, key, { first_name: 'Ngozi', last_name: 'Eze', email_address: email });
    await sleep(200);
    const stopped = exited(at);
    at.process.kill('SIGTERM');
    await sleep(200);

    const notReady = await fetch(`${at.baseUrl}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({ status: 'not ready', reason: 'shutting down' });
    expect((await fetch(`${at.baseUrl}/healthz`)).status).toBe(200);
    // Still taken during the delay, with word that the connection will not be kept.
    const during = await fetch(`${at.baseUrl}/v1/users?page=1&limit=5&sort=DESC`, { headers: { authorization: key } });
    expect(during.status, await during.clone().text()).toBe(200);
    expect(during.headers.get('connection')).toBe('close');

    await sleep(2_000);
    // Past the delay the port is closed: a balancer's next connection goes to another server.
    await expect(fetch(`${at.baseUrl}/healthz`)).rejects.toThrow();
    inFlight.finish();
    const answer = await inFlight.answered;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.email).toBe(email);
    expect(await stopped).toBe(0);
    expect(at.output()).toContain('"msg":"stopped"');
    expect(at.output()).not.toContain('"level":"error"');

    // The database was closed, not abandoned: the next server opens it and has the answered write.
    server = await store.start(AS_DEPLOYED);
    const users = expectOk(await call('GET', `/v1/users?page=1&limit=5&sort=DESC&search=${encodeURIComponent(email)}`, { key, baseUrl: server.baseUrl }));
    expect(users.users.map((u: { email: string }) => u.email)).toEqual([email]);
    await server.stop();
    server = undefined;
  }, 180_000);

  it('closes a request still unanswered at the end of the grace period, and still exits 0', async () => {
    server = await store.start({ ...AS_DEPLOYED, ESCROW_SHUTDOWN_GRACE_MS: '1000' });
    const at = server;
    const key = await newClientKey(at);
    const neverFinished = halfSent(at, key, { first_name: 'Tunde', last_name: 'Bello', email_address: `never.${randomUUID()}@example.com` });
    const cutOff = neverFinished.answered.then(
      () => 'answered',
      () => 'cut off',
    );
    await sleep(200);
    const stopped = exited(at);
    const started = Date.now();
    at.process.kill('SIGTERM');
    expect(await stopped).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await cutOff).toBe('cut off');
    expect(at.output()).toContain('requests still unanswered at the end of the grace period');
    server = undefined;
  }, 120_000);
});
