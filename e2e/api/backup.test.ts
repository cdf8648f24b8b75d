/**
 * Backups of the embedded database (issue #58 item 5; docs/operations.md, "Backups"): `npm run backup -- FILE` asks the
 * running server for a copy while it takes writes; `npm run restore -- FILE` opens it in an empty data directory, and a
 * server started there has every write acknowledged before the backup began, with the ledger balanced.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';
import { call, expectOk } from './support/api';

const ROOT = path.resolve(__dirname, '../..');

function npmRun(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const { DATABASE_URL: _ignored, ...inherited } = process.env;
    const child = spawn('npm', ['run', '--silent', ...args], { cwd: ROOT, env: { ...inherited, ...env } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`npm run ${args.join(' ')} still running after 120 s:\n${output}`));
    }, 120_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(inject('database') === 'postgres')('backups of the embedded database', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-backup-'));
  const dataDir = path.join(scratch, 'data');
  let server: TestServer | undefined;
  let restored: TestServer | undefined;

  beforeAll(async () => {
    server = await startTestServer({ dataDir });
  }, 120_000);

  afterAll(async () => {
    await restored?.stop();
    await server?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('backed up under a write load and restored into a fresh directory: every write acknowledged before the backup began is there, and the ledger balances', async () => {
    const at = server!;
    const clientKey = expectOk(await call('POST', '/v1/operator/clients', { key: at.operatorKey, baseUrl: at.baseUrl, body: { name: 'Backed-up marketplace' } })).secret_key as string;
    const api = (method: string, route: string, body?: unknown, base = at.baseUrl) => call(method, route, { key: clientKey, body, baseUrl: base });

    // Four writers, each creating a customer and funding its wallet, one after another until told to stop.
    const acknowledged: Array<{ userId: string; amount: number }> = [];
    let writing = true;
    const writer = async (n: number) => {
      for (let i = 0; writing; i++) {
        const user = await api('POST', '/v1/users', { first_name: 'Ada', last_name: `Writer${n}`, email_address: `w${n}.${i}.${randomUUID()}@example.com` });
        if (user.status !== 200) continue;
        const amount = 100 + n * 10 + (i % 7);
        if ((await api('POST', '/v1/wallets/fund', { user_id: user.body.data.id, amount })).status === 200) acknowledged.push({ userId: user.body.data.id, amount });
      }
    };
    const writers = [1, 2, 3, 4].map(writer);
    await sleep(1_500);

    const file = path.join(scratch, 'escrow.tar.gz');
    const before = [...acknowledged];
    const backup = await npmRun(['backup', '--', file], { ESCROW_OPERATOR_KEY: at.operatorKey, PORT: new URL(at.baseUrl).port, ESCROW_DATA_DIR: dataDir });
    await sleep(500);
    writing = false;
    await Promise.all(writers);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain(`from the server at http://127.0.0.1:${new URL(at.baseUrl).port}`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(before.length).toBeGreaterThan(0);
    // The server kept taking writes while it was copied.
    expect(acknowledged.length).toBeGreaterThan(before.length);

    const freshDir = path.join(scratch, 'restored');
    const restore = await npmRun(['restore', '--', file], { ESCROW_DATA_DIR: freshDir });
    expect(restore.code, restore.output).toBe(0);
    expect(fs.existsSync(path.join(freshDir, 'encryption-key'))).toBe(false);
    fs.copyFileSync(path.join(dataDir, 'encryption-key'), path.join(freshDir, 'encryption-key'));

    restored = await startTestServer({ dataDir: freshDir });
    const report = expectOk(await call('GET', '/v1/operator/ledger/integrity', { key: restored.operatorKey, baseUrl: restored.baseUrl }));
    expect(report).toMatchObject({ balanced: true, negative_accounts: [] });
    const missing: string[] = [];
    for (const { userId, amount } of before) {
      const wallet = await api('GET', `/v1/wallets/${userId}`, undefined, restored.baseUrl);
      if (wallet.status !== 200 || wallet.body.data.balance !== amount) missing.push(`${userId}: ${wallet.status} ${JSON.stringify(wallet.body.data?.balance)} (want ${amount})`);
    }
    expect(missing).toEqual([]);
  }, 300_000);

  it('never overwrites a file, restores only into an empty directory, and copies a stopped server’s directory itself', async () => {
    const file = path.join(scratch, 'escrow.tar.gz');
    const again = await npmRun(['backup', '--', file], { ESCROW_OPERATOR_KEY: server!.operatorKey, PORT: new URL(server!.baseUrl).port, ESCROW_DATA_DIR: dataDir });
    expect(again.code).not.toBe(0);
    expect(again.output).toContain('exists: a backup never overwrites a file');

    const intoUsed = await npmRun(['restore', '--', file], { ESCROW_DATA_DIR: dataDir });
    expect(intoUsed.code).not.toBe(0);
    expect(intoUsed.output).toContain('is not empty: restore into an empty directory');

    await restored!.stop();
    restored = undefined;
    const offline = path.join(scratch, 'offline.tar.gz');
    const copied = await npmRun(['backup', '--', offline], { ESCROW_OPERATOR_KEY: '', ESCROW_DATA_DIR: path.join(scratch, 'restored') });
    expect(copied.code, copied.output).toBe(0);
    expect(copied.output).toContain(`from ${path.join(scratch, 'restored')}`);
    expect(fs.statSync(offline).size).toBeGreaterThan(1000);
  }, 300_000);
});
