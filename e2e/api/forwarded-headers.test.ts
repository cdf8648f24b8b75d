/**
 * X-Forwarded-Host/Proto and Host as an attacker sends them (issue #22, item 7): they count only from a
 * trusted proxy (ESCROW_TRUSTED_PROXIES), a malformed one is never a 500, and a proof URL is an https URL
 * or this service's own /v1/files URL whatever the headers say.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';
import { baseUrl, call, expectError, expectOk, newClient, newDeal, type TestClient } from './support/api';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function upload(client: TestClient, headers: Record<string, string>, server = baseUrl()): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'proof.png');
  const res = await fetch(`${server}/v1/files`, { method: 'POST', headers: { authorization: client.secretKey, ...headers }, body: form });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.data.url;
}

/** A funded milestone, ready to be delivered. */
async function fundedMilestone(client: TestClient, server = baseUrl()) {
  const deal = await newDealOn(client, server);
  expectOk(await call('POST', `/v1/milestones/${deal.milestoneIds[0]}/fund`, { key: client.secretKey, body: { buyer_id: deal.buyer.id }, baseUrl: server }));
  return { id: deal.milestoneIds[0]!, sellerId: deal.seller.id as string };
}

async function newDealOn(client: TestClient, server: string) {
  if (server === baseUrl()) return newDeal(client, [1000], { walletFunds: 2000 });
  const user = async (first: string) =>
    expectOk(await call('POST', '/v1/users', { key: client.secretKey, baseUrl: server, body: { first_name: first, last_name: 'Test', email_address: `${first}.${Date.now()}.${Math.random()}@example.com` } }));
  const buyer = await user('buyer');
  const seller = await user('seller');
  expectOk(await call('POST', '/v1/wallets/fund', { key: client.secretKey, baseUrl: server, body: { user_id: buyer.id, amount: 2000 } }));
  const transaction = expectOk(
    await call('POST', '/v1/transactions', {
      key: client.secretKey,
      baseUrl: server,
      body: {
        title: 'Forwarded headers',
        description: 'A deal made by a test',
        buyer_id: buyer.id,
        seller_id: seller.id,
        milestones: [{ title: 'One', description: 'Work', amount: 1000, due_date: new Date(Date.now() + 10 * 86_400_000).toISOString() }],
      },
    }),
  );
  return { buyer, seller, milestoneIds: transaction.milestones.map((m: { id: string }) => m.id) as string[] };
}

function deliver(client: TestClient, m: { id: string; sellerId: string }, proofs: string[], headers: Record<string, string>, server = baseUrl()) {
  return call('POST', `/v1/milestones/${m.id}/deliver`, { key: client.secretKey, body: { seller_id: m.sellerId, proofs_of_completion: proofs }, headers, baseUrl: server });
}

/** fetch sets Host itself: node:http sends the one given. */
function postWithHost(url: string, host: string, key: string, body: unknown): Promise<{ status: number; body: any }> {
  const payload = Buffer.from(JSON.stringify(body));
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', setHost: false, headers: { host, authorization: key, 'content-type': 'application/json', 'content-length': payload.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('a server that trusts no proxy (the default)', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await newClient();
  });

  it('refuses a javascript: proof, whatever X-Forwarded-Proto says', async () => {
    const m = await fundedMilestone(client);
    const attempts: Array<Record<string, string>> = [{}, { 'x-forwarded-proto': 'javascript:x//' }, { 'x-forwarded-proto': 'javascript:x//', 'x-forwarded-host': '' }];
    for (const headers of attempts) {
      expectError(await deliver(client, m, ['javascript:alert(document.cookie)//'], headers), 400, 'VALIDATION_ERROR', /https URL/);
    }
  });

  it('refuses http URLs on 169.254.169.254, whatever X-Forwarded-Host or Host says', async () => {
    const m = await fundedMilestone(client);
    const fileId = (await upload(client, {})).split('/').pop();
    const headers = { 'x-forwarded-host': '169.254.169.254' };
    expectError(await deliver(client, m, ['http://169.254.169.254/latest/meta-data/iam/security-credentials/'], headers), 400, 'VALIDATION_ERROR');
    expectError(await deliver(client, m, [`http://169.254.169.254/v1/files/${fileId}`], headers), 400, 'VALIDATION_ERROR');
    const viaHost = await postWithHost(`${baseUrl()}/v1/milestones/${m.id}/deliver`, '169.254.169.254', client.secretKey, {
      seller_id: m.sellerId,
      proofs_of_completion: [`http://169.254.169.254/v1/files/${fileId}`],
    });
    expect(viaHost.status, JSON.stringify(viaHost.body)).toBe(400);
    expect(viaHost.body).toMatchObject({ status: false, code: 'VALIDATION_ERROR' });
    // A file URL is stored as this request's own origin, not the forwarded one.
    expect(await upload(client, headers)).toMatch(new RegExp(`^${baseUrl()}/v1/files/`));
  });

  it('refuses a plain-http URL on its own host that is not one of its files', async () => {
    const m = await fundedMilestone(client);
    expectError(await deliver(client, m, [`${baseUrl()}/dashboard`], {}), 400, 'VALIDATION_ERROR');
  });

  it('answers a malformed X-Forwarded-Host or Host without a 500, and still takes its own file URLs', async () => {
    for (const bad of ['bad[host', 'example.com/path', 'a b', 'user@example.com']) {
      const m = await fundedMilestone(client);
      const url = await upload(client, { 'x-forwarded-host': bad });
      expect(url).toMatch(new RegExp(`^${baseUrl()}/v1/files/`));
      const delivered = expectOk(await deliver(client, m, [url], { 'x-forwarded-host': bad, 'x-forwarded-proto': 'https' }));
      expect(delivered.proofs_of_completion).toEqual([url]);
    }
    const m = await fundedMilestone(client);
    const url = await upload(client, {});
    const viaHost = await postWithHost(`${baseUrl()}/v1/milestones/${m.id}/deliver`, 'bad[host', client.secretKey, { seller_id: m.sellerId, proofs_of_completion: [url] });
    expect(viaHost.status, JSON.stringify(viaHost.body)).toBe(200);
  });
});

describe('a server behind a trusted proxy on loopback (ESCROW_TRUSTED_PROXIES=loopback)', () => {
  let server: TestServer;
  let client: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ env: { ESCROW_TRUSTED_PROXIES: 'loopback' } });
    const created = expectOk(await call('POST', '/v1/operator/clients', { key: server.operatorKey, body: { name: 'Behind a proxy' }, baseUrl: server.baseUrl }));
    client = { id: created.id, secretKey: created.secret_key, publicKey: created.public_key };
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('makes file URLs with the host and scheme the proxy forwarded', async () => {
    expect(await upload(client, { 'x-forwarded-host': 'escrow.example.test', 'x-forwarded-proto': 'https' }, server.baseUrl)).toMatch(
      /^https:\/\/escrow\.example\.test\/v1\/files\/[0-9a-f-]{36}$/,
    );
  });

  it('still refuses javascript: and link-local proofs, and passes over a forwarded host it could not be served at', async () => {
    const m = await fundedMilestone(client, server.baseUrl);
    expect(await upload(client, { 'x-forwarded-proto': 'javascript:x//' }, server.baseUrl)).toMatch(new RegExp(`^${server.baseUrl}/v1/files/`));
    expectError(await deliver(client, m, ['javascript:alert(1)//'], { 'x-forwarded-proto': 'javascript:x//' }, server.baseUrl), 400, 'VALIDATION_ERROR');
    const linkLocal = { 'x-forwarded-host': '169.254.169.254' };
    const url = await upload(client, linkLocal, server.baseUrl);
    expect(url).toMatch(new RegExp(`^${server.baseUrl}/v1/files/`));
    expectError(await deliver(client, m, [url.replace(new URL(server.baseUrl).host, '169.254.169.254')], linkLocal, server.baseUrl), 400, 'VALIDATION_ERROR');
    expect(await upload(client, { 'x-forwarded-host': 'bad[host' }, server.baseUrl)).toMatch(new RegExp(`^${server.baseUrl}/v1/files/`));
  });

  it('tells the start banner on this machine about the demo sign-ins, and a caller the proxy forwards from elsewhere nothing', async () => {
    const state = (path: string, headers: Record<string, string> = {}) => fetch(`${server.baseUrl}${path}`, { headers });
    const local = await state('/api/health/demo-accounts');
    expect(local.status).toBe(200);
    expect(((await local.json()) as { data: { demo_accounts: string } }).data.demo_accounts).toBe('off');
    const remote = await state('/api/health/demo-accounts', { 'x-forwarded-for': '203.0.113.7' });
    expect(remote.status).toBe(404);
    expect(await remote.text()).not.toMatch(/demo_accounts|retired/);
  });
});
