/**
 * Secrets (issue #22 items 5 and 14): a key-minting call replayed with its Idempotency-Key never shows
 * the secret again, and nothing secret is kept in idempotency_keys; webhook signing secrets and the
 * dashboard's demo key are encrypted at rest (read here straight from the tables), deliveries still
 * verify, the dashboard still signs in and works, plaintext rows written before are sealed at start, and
 * a server holding another encryption key refuses to start. On PGlite, and on PostgreSQL when
 * TEST_DATABASE_URL is set.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '@/lib/escrow/webhook-signature';
import { openSealed, PURPOSES, SEALED_PREFIX } from '../support/sealed-secrets';
import type { TestServer } from '../support/test-server';
import { restartableStore, type RestartableStore } from './support/restartable-store';
import { call, expectOk } from './support/api';

type Received = { raw: string; signature: string };

let store: RestartableStore;
let server: TestServer;
const receiver = { url: '', got: [] as Received[], close: async () => {} };

const api = (method: string, route: string, key: string, body?: unknown, idempotencyKey?: string) =>
  call(method, route, { key, body, baseUrl: server.baseUrl, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {} });

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Sends a test event and returns what the receiver got for it. */
async function testDelivery(key: string, webhookId: string): Promise<Received> {
  const delivery = expectOk(await api('POST', `/v1/webhooks/${webhookId}/test`, key));
  return waitFor('the test event', () => receiver.got.find((r) => JSON.parse(r.raw).id === delivery.event_id));
}

const verifies = (r: Received, secret: string) => verifySignature({ header: r.signature, body: r.raw, secrets: secret, nowSeconds: Math.floor(Date.now() / 1000) }).ok;

/** Signs in to the dashboard over HTTP as next-auth's credentials form does, and returns the session cookie. */
async function dashboardSession(email: string, password: string): Promise<string> {
  const csrf = await fetch(`${server.baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const signIn = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies },
    body: new URLSearchParams({ csrfToken, email, password, json: 'true' }),
  });
  const session = signIn.headers.getSetCookie().find((c) => c.includes('session-token'));
  if (!session) throw new Error(`sign-in failed: HTTP ${signIn.status}`);
  return session.split(';')[0]!;
}

const secrets: { clientKey: string; firstSecret: string; rotatedSecret: string; webhookId: string } = { clientKey: '', firstSecret: '', rotatedSecret: '', webhookId: '' };

beforeAll(async () => {
  const server0 = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.got.push({ raw: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['escrow-signature']) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server0.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server0.address() as AddressInfo).port}/hooks`;
  receiver.close = () => new Promise<void>((resolve) => server0.close(() => resolve()));
  store = await restartableStore();
  server = await store.start({}, true);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await receiver.close();
  await store?.remove();
});

describe('key-minting calls replayed with their Idempotency-Key', () => {
  it('create client: the secret key once; the replay is the same client with secret_key null and says why', async () => {
    const first = await api('POST', '/v1/operator/clients', server.operatorKey, { name: 'Replayed' }, 'mint-client-1');
    const created = expectOk(first);
    expect(created.secret_key).toMatch(/^sk_test_/);
    secrets.clientKey = created.secret_key;
    const replay = await api('POST', '/v1/operator/clients', server.operatorKey, { name: 'Replayed' }, 'mint-client-1');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const again = expectOk(replay);
    expect(again).toEqual({ ...created, secret_key: null });
    expect(replay.body.message).toMatch(/shown only in that answer/);
    expect(JSON.stringify(replay.body)).not.toContain(created.secret_key);
  });

  it('create webhook and rotate its secret: each secret once; replays answer with secret null', async () => {
    const key = secrets.clientKey;
    const created = expectOk(await api('POST', '/v1/webhooks', key, { url: receiver.url }, 'mint-hook-1'));
    expect(created.secret).toMatch(/^whsec_/);
    const replay = await api('POST', '/v1/webhooks', key, { url: receiver.url }, 'mint-hook-1');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(expectOk(replay)).toEqual({ ...created, secret: null });
    expect(replay.body.message).toMatch(/rotate-secret/);

    const rotated = expectOk(await api('POST', `/v1/webhooks/${created.id}/rotate-secret`, key, undefined, 'mint-rotate-1'));
    expect(rotated.secret).toMatch(/^whsec_/);
    const rotateReplay = await api('POST', `/v1/webhooks/${created.id}/rotate-secret`, key, undefined, 'mint-rotate-1');
    expect(rotateReplay.headers.get('idempotent-replayed')).toBe('true');
    expect(expectOk(rotateReplay).secret).toBeNull();
    expect(JSON.stringify(rotateReplay.body)).not.toMatch(/whsec_/);
    Object.assign(secrets, { firstSecret: created.secret, rotatedSecret: rotated.secret, webhookId: created.id });

    // The secrets still sign: both, during the rotation's overlap.
    const got = await testDelivery(key, created.id);
    expect(verifies(got, rotated.secret)).toBe(true);
    expect(verifies(got, created.secret)).toBe(true);
  });
});

describe('read straight from the tables', () => {
  let demoSecretKey = '';

  it('idempotency_keys holds no secret; webhook secrets and the demo key are sealed, never plaintext', async () => {
    await server.stop();
    const replays = await store.query<{ response_body: string }>('select response_body from idempotency_keys');
    expect(replays.length).toBe(3);
    for (const { response_body } of replays) expect(response_body).not.toMatch(/sk_(test|live)_|whsec_/);
    const all = JSON.stringify(replays);
    for (const secret of [secrets.clientKey, secrets.firstSecret, secrets.rotatedSecret]) expect(all).not.toContain(secret);

    const [hook] = await store.query<{ secret: string; previous_secret: string }>('select secret, previous_secret from webhook_endpoints where id = $1', [secrets.webhookId]);
    expect(hook!.secret.startsWith(SEALED_PREFIX)).toBe(true);
    expect(hook!.previous_secret.startsWith(SEALED_PREFIX)).toBe(true);
    expect(`${hook!.secret} ${hook!.previous_secret}`).not.toMatch(/whsec_/);

    const [setting] = await store.query<{ secret_key: string }>('select secret_key from dashboard_client_keys');
    expect(setting!.secret_key.startsWith(SEALED_PREFIX)).toBe(true);
    expect(JSON.stringify(setting)).not.toMatch(/sk_test_/);

    // The key was made on first start, in a file only its owner can read.
    const keyFile = path.join(store.dataDir, 'encryption-key');
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = fs.readFileSync(keyFile, 'utf8').trim();
    expect(openSealed(hook!.secret, key, PURPOSES.webhookSecret)).toBe(secrets.rotatedSecret);
    expect(openSealed(hook!.previous_secret, key, PURPOSES.webhookSecret)).toBe(secrets.firstSecret);
    demoSecretKey = openSealed(setting!.secret_key, key, PURPOSES.clientSecretKey);
    expect(demoSecretKey).toMatch(/^sk_test_/);
  });

  it('plaintext rows written before encryption are sealed at start; deliveries verify and the dashboard works', async () => {
    // As a server of the version before this one left them.
    await store.query('update webhook_endpoints set secret = $1, previous_secret = $2 where id = $3', [secrets.rotatedSecret, secrets.firstSecret, secrets.webhookId]);
    await store.query('update dashboard_client_keys set secret_key = $1', [demoSecretKey]);
    server = await store.start({}, true);
    expect(server.output()).toMatch(/"msg":"secrets encrypted at rest","count":3/);

    const got = await testDelivery(secrets.clientKey, secrets.webhookId);
    expect(verifies(got, secrets.rotatedSecret)).toBe(true);
    expect(verifies(got, secrets.firstSecret)).toBe(true);

    // The dashboard acts with the demo key it keeps encrypted: the admin's customer list comes from the API.
    const cookie = await dashboardSession('admin@demo.escrowdesk.ng', 'demo-admin-pass');
    const page = await fetch(`${server.baseUrl}/admin/customers`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Ada');
    expect(html).not.toContain(demoSecretKey);

    await server.stop();
    const [hook] = await store.query<{ secret: string; previous_secret: string }>('select secret, previous_secret from webhook_endpoints where id = $1', [secrets.webhookId]);
    const [setting] = await store.query<{ secret_key: string }>('select secret_key from dashboard_client_keys');
    expect([hook!.secret, hook!.previous_secret, setting!.secret_key].every((v) => v.startsWith(SEALED_PREFIX))).toBe(true);
  }, 120_000);

  it('a server holding another encryption key refuses to start, and says why', async () => {
    const otherKey = Buffer.alloc(32, 7).toString('base64');
    await expect(store.start({ ESCROW_ENCRYPTION_KEY: otherKey }, true)).rejects.toThrow(/not the key this database's secrets are encrypted with/);
    // The right key (the first server's) starts.
    const key = fs.readFileSync(path.join(store.dataDir, 'encryption-key'), 'utf8').trim();
    server = await store.start({ ESCROW_ENCRYPTION_KEY: key }, true);
    const got = await testDelivery(secrets.clientKey, secrets.webhookId);
    expect(verifies(got, secrets.rotatedSecret)).toBe(true);
  }, 120_000);
});
