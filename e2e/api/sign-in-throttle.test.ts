/**
 * Sign-in throttling over HTTP, through next-auth's own endpoints as the sign-in form calls them (issue
 * #22, item 9): per account and address, with a wait that grows, so an attacker's wrong passwords from one
 * address never stop the real user signing in from another; counted in the database, so shared by
 * separate server processes. The servers trust a proxy on loopback, so X-Forwarded-For names each address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerPair, startTestServer, type TestServer } from '../support/test-server';

const ADMIN = { email: 'admin@demo.escrowdesk.ng', password: 'demo-admin-pass' };
const THROTTLED = 'SignInThrottled';

/** One sign-in as the dashboard's form makes it: the error next-auth reports (null on success) and whether a session cookie came back. */
async function signIn(server: TestServer, address: string, email: string, password: string): Promise<{ error: string | null; session: boolean }> {
  const headers = { 'x-forwarded-for': address };
  const csrf = await fetch(`${server.baseUrl}/api/auth/csrf`, { headers });
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: '/dashboard', json: 'true' }),
    redirect: 'manual',
  });
  const body = (await res.json()) as { url?: string };
  const error = body.url ? new URL(body.url, server.baseUrl).searchParams.get('error') : 'NoResponse';
  return { error, session: res.headers.getSetCookie().some((c) => /session-token=[^;]/.test(c)) };
}

async function failures(server: TestServer, address: string, count: number): Promise<Array<string | null>> {
  const errors: Array<string | null> = [];
  for (let i = 0; i < count; i++) errors.push((await signIn(server, address, ADMIN.email, 'not the password')).error);
  return errors;
}

describe('sign-in throttling on one server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seedDemo: true, env: { ESCROW_TRUSTED_PROXIES: 'loopback' } });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('makes an address wait after 5 wrong passwords in a row, and the real user at another address still signs in', async () => {
    const attacker = '203.0.113.10';
    expect(await failures(server, attacker, 12)).toEqual([...Array(5).fill('CredentialsSignin'), ...Array(7).fill(THROTTLED)]);
    // The right password does not get the attacker's address past its wait.
    expect(await signIn(server, attacker, ADMIN.email, ADMIN.password)).toEqual({ error: THROTTLED, session: false });
    expect(await signIn(server, '198.51.100.20', ADMIN.email, ADMIN.password)).toEqual({ error: null, session: true });
  });

  it('forgets the failures of an address once it signs in', async () => {
    const user = '198.51.100.21';
    expect(await failures(server, user, 4)).toEqual(Array(4).fill('CredentialsSignin'));
    expect(await signIn(server, user, ADMIN.email, ADMIN.password)).toEqual({ error: null, session: true });
    expect(await failures(server, user, 4)).toEqual(Array(4).fill('CredentialsSignin'));
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('sign-in throttling across two servers on one PostgreSQL (skipped without TEST_DATABASE_URL: PGlite is one process)', () => {
  let first: TestServer;
  let second: TestServer;
  let pair: Awaited<ReturnType<typeof startServerPair>> | undefined;
  beforeAll(async () => {
    pair = await startServerPair({ ESCROW_TRUSTED_PROXIES: 'loopback' }, { seedDemo: true });
    ({ first, second } = pair);
  }, 180_000);
  afterAll(async () => {
    await pair?.stop();
  });

  it('counts the failures of an address on both servers together', async () => {
    const attacker = '203.0.113.30';
    expect([...(await failures(first, attacker, 3)), ...(await failures(second, attacker, 2))]).toEqual(Array(5).fill('CredentialsSignin'));
    expect((await signIn(first, attacker, ADMIN.email, 'not the password')).error).toBe(THROTTLED);
    expect(await signIn(second, attacker, ADMIN.email, ADMIN.password)).toEqual({ error: THROTTLED, session: false });
    expect(await signIn(second, '198.51.100.30', ADMIN.email, ADMIN.password)).toEqual({ error: null, session: true });
  });
});
