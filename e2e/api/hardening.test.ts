import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';

/** A server of its own with a tiny rate limit, whose log this test reads. */
let server: TestServer;
let secretKey: string;

async function call(method: string, route: string, key: string | null, body?: unknown) {
  const res = await fetch(`${server.baseUrl}${route}`, {
    method,
    headers: { ...(key ? { authorization: key } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

beforeAll(async () => {
  server = await startTestServer({ env: { ESCROW_RATE_LIMIT_BURST: '5', ESCROW_RATE_LIMIT_PER_MINUTE: '60' } });
  const created = await call('POST', '/v1/operator/clients', server.operatorKey, { name: 'Limited' });
  secretKey = created.body.data.secret_key;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('rate limiting per client key', () => {
  it('answers 429 with Retry-After once the burst is spent, and other clients are unaffected', async () => {
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await call('GET', '/v1/wallets/banks', secretKey);
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    expect(limited!.body).toMatchObject({ status: false, code: 'RATE_LIMITED' });
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const other = await call('POST', '/v1/operator/clients', server.operatorKey, { name: 'Other' });
    expect((await call('GET', '/v1/wallets/banks', other.body.data.secret_key)).status).toBe(200);
  });
});

describe('logs', () => {
  it('write one structured line per request and never a key', async () => {
    const res = await call('GET', '/v1/users?page=1&limit=1&sort=DESC', server.operatorKey);
    expect(res.status).toBe(401);
    const requestLines = () =>
      server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.msg === 'request');
    // Request lines are written once per turn of the server's event loop, so one may trail its response.
    await expect.poll(() => requestLines().some((l) => l.request_id === res.headers.get('x-request-id')), { timeout: 2000 }).toBe(true);
    const lines = requestLines();
    const line = lines.find((l) => l.request_id === res.headers.get('x-request-id'));
    expect(line).toMatchObject({ method: 'GET', route: '/v1/users', status: 401, client_id: null });
    expect(typeof line!.duration_ms).toBe('number');
    expect(lines.filter((l) => l.status === 429).length).toBeGreaterThanOrEqual(3);
    expect(server.output()).not.toContain(secretKey);
    expect(server.output()).not.toContain(server.operatorKey);
  });
});

describe('keep-alive connections', () => {
  /** GETs a route on the agent's one socket: its status, and whether the socket was one already open. */
  function get(agent: http.Agent, route: string): Promise<{ status: number; reused: boolean }> {
    return new Promise((resolve, reject) => {
      const req = http.get(`${server.baseUrl}${route}`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
      });
      req.on('error', reject);
    });
  }

  it('stay open while idle longer than Node’s 5 s default, as load balancers expect', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await get(agent, '/api/health')).toEqual({ status: 200, reused: false });
      await new Promise((r) => setTimeout(r, 6000));
      expect(await get(agent, '/api/health')).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  }, 20_000);
});
