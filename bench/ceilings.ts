/**
 * The machine's own limits, measured in the same run: pgbench on the same PostgreSQL (the machine's
 * calibration line), and the bare node:http + postgres.js server for GET milestone and the escrow lifecycle.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { onDatabase } from '../e2e/support/test-server';

const ROOT = path.resolve(__dirname, '..');

export type Pgbench = { run: (seconds: number) => Promise<number>; drop: () => Promise<void> };

/**
 * A pgbench database (scale 10) kept for several runs of its default TPC-B-like script, 8 clients:
 * the benchmark runs it again beside the phases it compares with it.
 */
export async function preparePgbench(adminUrl: string): Promise<Pgbench> {
  const name = `escrow_bench_pgbench_${Date.now()}`;
  await onDatabase(adminUrl, (sql) => sql.unsafe(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = () => onDatabase(adminUrl, (sql) => sql.unsafe(`drop database if exists ${name} with (force)`)).then(() => undefined);
  try {
    execFileSync('pgbench', ['-i', '-s', '10', '-q', url.toString()], { stdio: 'pipe' });
  } catch (error) {
    await drop();
    throw error;
  }
  return {
    drop,
    run: async (seconds) => {
      const out = execFileSync('pgbench', ['-c', '8', '-j', '2', '-T', String(seconds), url.toString()], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const match = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
      if (!match) throw new Error(`pgbench printed no tps:\n${out}`);
      return Number(match[1]);
    },
  };
}

/** One pgbench run of `seconds` on a database of its own. */
export async function pgbenchTps(adminUrl: string, seconds: number): Promise<{ tps: number; clients: number; scale: number; seconds: number }> {
  const pgbench = await preparePgbench(adminUrl);
  try {
    return { tps: await pgbench.run(seconds), clients: 8, scale: 10, seconds };
  } finally {
    await pgbench.drop();
  }
}

export type BareServer = { baseUrl: string; process: ChildProcess; workers: number; stop: () => Promise<void> };

/** bench/bare-server.ts with `poolSize` connections in all, in one process or in `workers` (node:cluster). */
export async function startBareServer(databaseUrl: string, poolSize: number, workers = 1): Promise<BareServer> {
  const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', path.join(ROOT, 'bench/bare-server.ts')], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: databaseUrl, POOL_SIZE: String(poolSize), WORKERS: String(workers) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bare server did not start:\n${output}`)), 30_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      const match = /listening on (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}:\n${output}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    process: child,
    workers,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
