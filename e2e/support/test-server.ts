/**
 * Starts the production build on a free port against a fresh database: a temporary PGlite directory,
 * or, when TEST_DATABASE_URL names a PostgreSQL server, a database of its own created for the run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import postgres from 'postgres';
import { productionServerArgs } from '../../scripts/production-server/command';
import { freshDataDir } from './data-template';

export type TestServer = {
  baseUrl: string;
  operatorKey: string;
  database: 'pglite' | 'postgres';
  databaseUrl?: string;
  dataDir?: string;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
};

const ROOT = path.resolve(__dirname, '../..');

/**
 * Settings for a test server that runs the processes a deployment would: on PostgreSQL a request worker per core and a
 * background worker (ESCROW_WORKERS unset). Other test servers on PostgreSQL are one process, which starts in less than
 * half the CPU time: the suite's shared server and the tests of the processes themselves run as deployed.
 */
export const AS_DEPLOYED = { ESCROW_WORKERS: '' };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs `run` on a connection of its own to the database `url` names, then closes it. */
export async function onDatabase<T>(url: string, run: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    return await run(sql);
  } finally {
    await sql.end();
  }
}

/** A fresh database of its own on the PostgreSQL server `adminUrl` names, its name starting with `prefix`; its URL. */
export async function createDatabase(adminUrl: string, prefix = 'escrow_test'): Promise<string> {
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await onDatabase(adminUrl, (sql) => sql.unsafe(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(adminUrl: string, databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  await onDatabase(adminUrl, (sql) => sql.unsafe(`drop database if exists ${name} with (force)`));
}

/**
 * Another suite's server may take the port between freePort() and this server's listen (start-up runs the
 * migrations first): the health answer counts only once this process has said it listens on `baseUrl`.
 */
const listensOn = (output: string, baseUrl: string) => output.includes(`"msg":"listening","url":"${baseUrl}"`);

export async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    if (listensOn(output(), baseUrl)) {
      try {
        if ((await fetch(`${baseUrl}/readyz`)).ok) return;
      } catch {
        // listening, not answering yet
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not become healthy in ${timeoutMs} ms:\n${output()}`);
}

export async function startTestServer(
  opts: { seedDemo?: boolean; env?: Record<string, string>; dataDir?: string; databaseUrl?: string; nodeArgs?: string[]; logFile?: string } = {},
): Promise<TestServer> {
  if (!fs.existsSync(path.join(ROOT, '.next/BUILD_ID'))) {
    throw new Error('No production build: run the tests through `npm test`, which builds first.');
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  const databaseUrl = opts.databaseUrl ?? (adminUrl ? await createDatabase(adminUrl) : undefined);
  const dataDir = databaseUrl ? undefined : (opts.dataDir ?? freshDataDir('escrow-test-'));
  const operatorKey = `op_test_${randomBytes(16).toString('hex')}`;
  const start = async (port: number) => {
    let log = '';
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...productionServerArgs(port, '127.0.0.1')], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        PORT: String(port),
        ESCROW_OPERATOR_KEY: operatorKey,
        ESCROW_SEED_DEMO: opts.seedDemo ? '1' : '0',
        DATABASE_URL: databaseUrl ?? '',
        ESCROW_DATA_DIR: dataDir ?? '',
        // Suites hammer one client key far faster than any integrator; the rate limit has a test of its own.
        ESCROW_RATE_LIMIT_PER_MINUTE: '10000000',
        ESCROW_RATE_LIMIT_BURST: '1000000',
        // Every request of a suite comes from 127.0.0.1, and suites send unknown keys on purpose.
        ESCROW_AUTH_FAILURES_PER_MINUTE: '1000000',
        // The suites' webhook receivers listen on loopback; a hosted server refuses such targets (webhook-targets.test.ts starts one without this).
        ESCROW_WEBHOOKS_ALLOW_PRIVATE: '1',
        ...(databaseUrl ? { ESCROW_WORKERS: '1' } : {}),
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // `logFile`: the output as it comes, for specs in other processes that read the server's log lines.
    const keep = (d: Buffer) => {
      log += d.toString();
      if (opts.logFile) fs.appendFileSync(opts.logFile, d);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const output = () => log;
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForHealth(baseUrl, child, output);
    return { child, output, baseUrl };
  };
  // A port taken between freePort() and the server's listen (another suite's server): start again on another.
  let started: Awaited<ReturnType<typeof start>> | undefined;
  for (let attempt = 1; !started; attempt++) {
    try {
      started = await start(await freePort());
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
  const { child, output, baseUrl } = started;
  return {
    baseUrl,
    operatorKey,
    database: databaseUrl ? 'postgres' : 'pglite',
    databaseUrl,
    dataDir,
    process: child,
    output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (databaseUrl && adminUrl && !opts.databaseUrl) await dropDatabase(adminUrl, databaseUrl);
      if (dataDir && !opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Two separate server processes (different ports) on one fresh PostgreSQL database, as several app
 * servers behind a load balancer run; the first seeds the demo when asked. Stopping the first removes the database.
 */
export async function startServerPair(
  env: Record<string, string> = {},
  opts: { seedDemo?: boolean } = {},
): Promise<{ first: TestServer; second: TestServer; stop: () => Promise<void> }> {
  const first = await startTestServer({ env, seedDemo: opts.seedDemo });
  const second = await startTestServer({ env, databaseUrl: first.databaseUrl });
  return {
    first,
    second,
    stop: async () => {
      await second.stop();
      await first.stop();
    },
  };
}
