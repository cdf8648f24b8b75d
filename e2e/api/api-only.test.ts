/**
 * `npm run start:api`: the API alone, without Next (no build needed), for operators who scale API servers
 * apart from the dashboard. It does the same start-up work (migrations, runners) and answers /v1 as
 * `npm start` does; anything else is not on this server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, dropDatabase, freePort } from '../support/test-server';

const ROOT = path.resolve(__dirname, '../..');
const script = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts['start:api'] as string;

let child: ChildProcess;
let output = '';
let baseUrl = '';
let port = 0;
let dataDir: string | undefined;
let databaseUrl: string | undefined;
const operatorKey = `op_test_${randomBytes(16).toString('hex')}`;

beforeAll(async () => {
  port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const adminUrl = process.env.TEST_DATABASE_URL;
  databaseUrl = adminUrl ? await createDatabase(adminUrl) : undefined;
  dataDir = databaseUrl ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-api-only-'));
  // The package.json script as npm runs it, in a process group of its own so the test can stop all of it.
  child = spawn('sh', ['-c', script], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      PATH: `${path.join(ROOT, 'node_modules/.bin')}:${process.env.PATH}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl ?? '',
      ESCROW_DATA_DIR: dataDir ?? '',
      ESCROW_WORKERS: '1',
      ESCROW_OPERATOR_KEY: operatorKey,
      ESCROW_SEED_DEMO: '0',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  for (let attempt = 0; !output.includes('Escrow Desk API is running'); attempt++) {
    if (child.exitCode !== null || attempt > 240) throw new Error(`start:api did not come up:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 120_000);

afterAll(async () => {
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  }
  if (databaseUrl) await dropDatabase(process.env.TEST_DATABASE_URL!, databaseUrl);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: string, route: string, key: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { authorization: key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe('npm run start:api', () => {
  it('serves the API: a client, a user and its wallet, with the same envelope, headers and errors', async () => {
    const created = await call('POST', '/v1/operator/clients', operatorKey, { name: 'API-only client' });
    expect(created.status).toBe(200);
    const key = created.body.data.secret_key as string;
    const user = await call('POST', '/v1/users', key, { first_name: 'Ada', last_name: 'Obi', email_address: `ada.${randomBytes(4).toString('hex')}@example.com` });
    expect(user).toMatchObject({ status: 200, body: { status: true, data: { first_name: 'Ada' } } });
    expect(user.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(user.headers.get('x-frame-options')).toBe('DENY');
    const wallet = await call('GET', `/v1/wallets/${user.body.data.id}`, key);
    expect(wallet).toMatchObject({ status: 200, body: { data: { balance: 0, user_id: user.body.data.id } } });
    expect(await call('GET', '/v1/users?page=1&limit=1&sort=DESC', 'sk_test_unknown')).toMatchObject({ status: 401, body: { status: false, code: 'UNAUTHORIZED' } });
    expect((await call('GET', '/v1/openapi.json', key)).body.openapi).toBe('3.1.0');
  });

  it('listens where HOST says, and its banner says so', async () => {
    expect(output).toContain(`Escrow Desk API is running at http://127.0.0.1:${port}/v1`);
    expect(output).toContain(`Listening on:   127.0.0.1:${port} only`);
    // Another address of this machine is not served.
    const lan = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal);
    if (lan) await expect(fetch(`http://${lan.address}:${port}/v1/openapi.json`)).rejects.toThrow();
  });

  it('has no dashboard, and did not start Next', async () => {
    const page = await fetch(`${baseUrl}/login`);
    expect(page.status).toBe(404);
    expect(await page.json()).toMatchObject({ status: false, code: 'NOT_FOUND' });
    expect(output).toContain('"serves":"api"');
    expect(output).not.toContain('next.config');
    expect(output).toContain('escrow desk ready');
  });
});
