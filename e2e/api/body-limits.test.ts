import fs from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Bodies (sign-in, proof uploads, pages' server actions, the API's JSON) are refused before they are held in
 * memory: a declared Content-Length over the limit at once, a chunked body once it streams past it. One
 * server process of its own (ESCROW_WORKERS=1), so its peak memory is the one measured.
 */
let server: TestServer;
let cookie = '';

type Outcome = { status: number; body: string; ms: number; sent: number };

/**
 * Sends `total` bytes in 1 MB writes (chunked unless `declared` is given, or `declared` announced and only
 * what the server reads sent), stopping as soon as the answer arrives: what a client sees of a refusal.
 * `pauseMs` spaces the writes, as a client on a real network would be: a server that answers from the
 * headers alone is then seen to answer while the body is still on its way, however fast loopback drains it.
 * `body` sends those bytes instead, in writes of `pieceBytes`.
 */
function stream(
  route: string,
  opts: { total: number; declared?: number; contentType: string; headers?: Record<string, string>; pauseMs?: number; body?: Buffer; pieceBytes?: number },
): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    let sent = 0;
    let done = false;
    const headers: Record<string, string | number> = { 'content-type': opts.contentType, cookie, ...opts.headers };
    if (opts.declared !== undefined) headers['content-length'] = opts.declared;
    const req = http.request(`${server.baseUrl}${route}`, { method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => {
        done = true;
        resolve({ status: res.statusCode ?? 0, body, ms: Date.now() - started, sent });
        req.destroy();
      });
    });
    req.on('error', (error) => (done ? undefined : reject(error)));
    const piece = opts.pieceBytes ?? 1024 * 1024;
    const filler = Buffer.alloc(piece, 0x61);
    const pump = () => {
      while (!done && sent < opts.total) {
        const chunk = opts.body ? opts.body.subarray(sent, sent + piece) : filler;
        sent += chunk.length;
        const flushed = req.write(chunk);
        // The pause follows every write, a drained one too: otherwise a busy socket's drains send the rest back to back.
        const next = opts.pauseMs ? () => setTimeout(pump, opts.pauseMs) : pump;
        if (!flushed) return void req.once('drain', next);
        if (opts.pauseMs) return void next();
      }
      if (!done && (opts.declared === undefined || sent >= opts.declared)) req.end();
    };
    pump();
  });
}

/** The server's peak resident memory since the last reset, in MB (Linux: /proc/<pid>/clear_refs 5 resets it). */
function resetPeak() {
  fs.writeFileSync(`/proc/${server.process.pid}/clear_refs`, '5');
}
function peakMb(): number {
  const line = fs.readFileSync(`/proc/${server.process.pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/);
  return Number(line?.[1]) / 1024;
}
function rssMb(): number {
  const line = fs.readFileSync(`/proc/${server.process.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return Number(line?.[1]) / 1024;
}

async function signIn(email: string, password: string): Promise<string> {
  const csrf = await fetch(`${server.baseUrl}/api/auth/csrf`);
  const jar = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar },
    body: new URLSearchParams({ email, password, csrfToken, json: 'true' }),
    redirect: 'manual',
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith('next-auth.session-token='));
  expect(session, `signed in as ${email}`).toBeDefined();
  return `${jar}; ${session!.split(';')[0]}`;
}

beforeAll(async () => {
  server = await startTestServer({ seedDemo: true, env: { ESCROW_WORKERS: '1' } });
  cookie = await signIn('admin@demo.escrowdesk.ng', 'demo-admin-pass');
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const MB = 1024 * 1024;

describe('a declared Content-Length over the limit', () => {
  it.each([
    ['/api/auth/callback/credentials', 300 * MB, 'application/x-www-form-urlencoded'],
    ['/data/uploads', 400 * MB, 'multipart/form-data; boundary=x'],
    ['/login', 50 * MB, 'text/plain;charset=UTF-8'],
  ])('to %s is a 413 before the body is read', async (route, declared, contentType) => {
    const res = await stream(route, { total: MB, declared, contentType, headers: route === '/login' ? { 'next-action': '0'.repeat(42) } : {} });
    expect(res.status, res.body).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ status: false, code: 'PAYLOAD_TOO_LARGE' });
    expect(res.ms).toBeLessThan(5000);
  });
});

describe('a chunked body without Content-Length', () => {
  it.each([
    ['/api/auth/callback/credentials', 'application/x-www-form-urlencoded'],
    ['/data/uploads', 'multipart/form-data; boundary=x'],
  ])('to %s is a 413 once past the limit, and the server does not hold it', async (route, contentType) => {
    const before = rssMb();
    resetPeak();
    const res = await stream(route, { total: 80 * MB, contentType });
    expect(res.status, res.body).toBe(413);
    expect(res.ms).toBeLessThan(10_000);
    expect(res.sent, 'answered while the body was still arriving').toBeLessThan(80 * MB);
    // Holding the body would add at least its 80 MB; reading it in bounded chunks adds a few.
    expect(peakMb() - before).toBeLessThan(40);
  }, 30_000);

  it('to a page (a server action) is refused: browsers always declare the length', async () => {
    const res = await stream('/login', { total: 20 * MB, contentType: 'text/plain;charset=UTF-8', headers: { 'next-action': '0'.repeat(42) }, pauseMs: 100 });
    expect(res.status, res.body).toBe(411);
    expect(res.sent).toBeLessThan(20 * MB);
  }, 30_000);
});

describe('a JSON body to /v1', () => {
  const operator = () => ({ authorization: `Bearer ${server.operatorKey}` });

  it('chunked past 1 MB is a 413 once past the limit, and the server does not hold it', async () => {
    const before = rssMb();
    resetPeak();
    const res = await stream('/v1/operator/clients', { total: 80 * MB, contentType: 'application/json', headers: operator() });
    expect(res.status, res.body).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ status: false, code: 'PAYLOAD_TOO_LARGE' });
    expect(res.sent, 'answered while the body was still arriving').toBeLessThan(80 * MB);
    expect(peakMb() - before).toBeLessThan(40);
  }, 30_000);

  it.each([
    ['chunked', false],
    ['with its length declared', true],
  ])('%s within the limit is read and validated whole, under any JSON content type', async (label, declareLength) => {
    for (const contentType of ['application/json', 'application/json; charset=utf-8', 'application/json-seq']) {
      // Whitespace makes it long enough to arrive in several pieces without changing what it says.
      const name = `Sent ${label} as ${contentType}`;
      const body = Buffer.from(`{"name": ${JSON.stringify(name)},${' '.repeat(300_000)}"mode": "test"}`);
      // In pieces, so a chunked body arrives as several chunks.
      const res = await stream('/v1/operator/clients', { total: body.length, body, pieceBytes: 64 * 1024, declared: declareLength ? body.length : undefined, contentType, headers: operator() });
      expect(res.sent).toBe(body.length);
      expect(res.status, `${contentType}: ${res.body}`).toBe(200);
      expect(JSON.parse(res.body).data.name).toBe(name);
    }
  });
});

describe('bodies within the limits', () => {
  it('still sign in, and still reach the upload route', async () => {
    expect(await signIn('ada.obi@demo.escrowdesk.ng', 'demo-buyer-pass')).toContain('next-auth.session-token=');
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(2 * MB)], { type: 'image/png' }), 'big.png');
    const res = await fetch(`${server.baseUrl}/data/uploads`, { method: 'POST', headers: { cookie }, body: form });
    // The admin is signed in but uploads are the parties': the route read the form and answered on its merits.
    expect([400, 403]).toContain(res.status);
  });
});
