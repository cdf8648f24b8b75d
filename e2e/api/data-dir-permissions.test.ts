import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * The embedded database, its lock file and the session secret live under ESCROW_DATA_DIR: owner only
 * (directories 0700, files 0600), on a fresh directory and on one an earlier version left world-readable.
 * Runs the embedded database whatever TEST_DATABASE_URL says (this is about its files), so only in the embedded pass:
 * the PostgreSQL pass would repeat it unchanged.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-perms-'));
const dataDir = path.join(root, 'data');
let server: TestServer | undefined;

/** Every entry under dir (dir included) whose mode is not owner-only, as "mode path". */
function loose(dir: string): string[] {
  const found: string[] = [];
  const walk = (entry: string) => {
    const stat = fs.lstatSync(entry);
    const mode = stat.mode & 0o777;
    if (stat.isDirectory()) {
      if (mode !== 0o700) found.push(`${mode.toString(8)} ${entry}`);
      for (const child of fs.readdirSync(entry)) walk(path.join(entry, child));
    } else if (!stat.isSymbolicLink() && mode !== 0o600) {
      found.push(`${mode.toString(8)} ${entry}`);
    }
  };
  walk(dir);
  return found;
}

function loosen(dir: string) {
  const walk = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isDirectory()) {
      fs.chmodSync(entry, 0o777);
      for (const child of fs.readdirSync(entry)) walk(path.join(entry, child));
    } else if (!stat.isSymbolicLink()) {
      fs.chmodSync(entry, 0o666);
    }
  };
  walk(dir);
}

/** Writes through the API (a client, its users) and makes the session secret, so every kind of file exists. */
async function exercise(s: TestServer) {
  const created = await fetch(`${s.baseUrl}/v1/operator/clients`, {
    method: 'POST',
    headers: { authorization: s.operatorKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Permissions', mode: 'test' }),
  });
  const key = ((await created.json()) as { data: { secret_key: string } }).data.secret_key;
  for (let i = 0; i < 20; i++) {
    await fetch(`${s.baseUrl}/v1/users`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Perm', last_name: `User${i}`, email_address: `perm.${i}.${Date.now()}@example.com` }),
    });
  }
  expect((await fetch(`${s.baseUrl}/api/auth/csrf`)).status).toBe(200);
}

const start = () => startTestServer({ dataDir, env: { DATABASE_URL: '', ESCROW_DATA_DIR: dataDir }, seedDemo: true });

afterAll(async () => {
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

describe.skipIf(inject('database') === 'postgres')('the data directory', () => {
  it('is made owner-only on a fresh start, and what the server writes later stays so', async () => {
    server = await start();
    expect(loose(dataDir)).toEqual([]);
    await exercise(server);
    expect(fs.existsSync(path.join(dataDir, 'nextauth-secret'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'escrow-desk.lock'))).toBe(true);
    expect(loose(dataDir)).toEqual([]);
    await server.stop();
    server = undefined;
    expect(loose(dataDir)).toEqual([]);
  }, 120_000);

  it('is tightened at start when an earlier start left it world-readable and writable', async () => {
    loosen(dataDir);
    expect(loose(dataDir).length).toBeGreaterThan(10);
    server = await start();
    expect(loose(dataDir)).toEqual([]);
    await exercise(server);
    expect(loose(dataDir)).toEqual([]);
  }, 120_000);
});
