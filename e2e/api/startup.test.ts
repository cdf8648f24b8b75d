import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { productionServerArgs } from '../../scripts/production-server/command';
import { createDatabase, dropDatabase, freePort, startTestServer } from '../support/test-server';

const ROOT = path.resolve(__dirname, '../..');

/** Runs the production server and resolves with its exit code and output once it stops by itself. */
function runUntilExit(env: Record<string, string>, timeoutMs = 60_000, onPort?: number): Promise<{ code: number | null; output: string }> {
  return (onPort ? Promise.resolve(onPort) : freePort()).then(
    (port) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, productionServerArgs(port), {
          cwd: ROOT,
          env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
        });
        let output = '';
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`still running after ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        child.on('exit', (code) => {
          clearTimeout(timer);
          resolve({ code, output });
        });
      }),
  );
}

async function operatorGet(server: { baseUrl: string; operatorKey: string }, route: string) {
  const res = await fetch(`${server.baseUrl}${route}`, { headers: { authorization: server.operatorKey } });
  return (await res.json()).data;
}

describe.runIf(inject('database') === 'pglite')('the embedded database', () => {
  it('refuses a second server on the same ESCROW_DATA_DIR with a clear message, and seeds the demo once across restarts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-lock-'));
    try {
      const first = await startTestServer({ dataDir, seedDemo: true });
      try {
        const clients = (await operatorGet(first, '/v1/operator/clients')).clients;
        expect(clients.map((c: { name: string }) => c.name)).toEqual(['Demo Marketplace']);
        expect((await operatorGet(first, '/v1/operator/ledger/integrity')).balanced).toBe(true);

        const second = await runUntilExit({ ESCROW_DATA_DIR: dataDir, ESCROW_SEED_DEMO: '1' });
        expect(second.code).toBe(1);
        expect(second.output).toContain(`The embedded database in ${dataDir} is already in use by process ${first.process.pid}`);
      } finally {
        await first.stop();
      }
      // The lock went with the first server; a restart opens the same data and does not seed again.
      const restarted = await startTestServer({ dataDir, seedDemo: true });
      try {
        const clients = (await operatorGet(restarted, '/v1/operator/clients')).clients;
        expect(clients).toHaveLength(1);
      } finally {
        await restarted.stop();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    // Three servers start on the embedded database here, two of them seeding: more than the suite's 30 s on a busy 2-core machine.
  }, 120_000);
});

describe('configuration errors', () => {
  // A server process that starts and stops: on a busy two-core machine that alone can take half a minute.
  it('a bad DATABASE_URL stops the server with the reason instead of serving errors', async () => {
    const result = await runUntilExit({ DATABASE_URL: 'mysql://nope', ESCROW_DATA_DIR: '' });
    expect(result.code).toBe(1);
    expect(result.output).toContain('DATABASE_URL: must be a postgres:// URL');
  }, 90_000);

  it('more than one worker process on the embedded database is refused with the reason', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-workers-'));
    try {
      const result = await runUntilExit({ ESCROW_WORKERS: '2', DATABASE_URL: '', ESCROW_DATA_DIR: dataDir });
      expect(result.code).toBe(1);
      expect(result.output).toContain('ESCROW_WORKERS above 1 needs DATABASE_URL');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it(`a port another process holds stops the server with exit code 1 and the reason (${inject('database')})`, async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, resolve));
    const port = (holder.address() as net.AddressInfo).port;
    const adminUrl = process.env.TEST_DATABASE_URL;
    // On PostgreSQL the server runs as workers: the primary must pass the worker's failure on.
    const databaseUrl = adminUrl ? await createDatabase(adminUrl) : '';
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-port-'));
    try {
      const result = await runUntilExit({ DATABASE_URL: databaseUrl, ESCROW_DATA_DIR: dataDir, ESCROW_SEED_DEMO: '0' }, 60_000, port);
      expect(result.code).toBe(1);
      expect(result.output).toContain('"msg":"could not listen"');
      expect(result.output).toContain('EADDRINUSE');
    } finally {
      holder.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (adminUrl) await dropDatabase(adminUrl, databaseUrl);
    }
  }, 90_000);
});
