/**
 * A PostgreSQL server of a test's own (issue #58): initdb into a temporary folder and pg_ctl on a free port, run as
 * the `postgres` user, so a test can stop it, kill it and start it again without touching the machine's shared one.
 * Debian's binaries are under /usr/lib/postgresql/<version>/bin.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './test-server';

export type PrivatePostgres = {
  url: string;
  port: number;
  /** pg_ctl stop: `fast` ends sessions and shuts down cleanly; `immediate` quits without a checkpoint. */
  stop: (mode?: 'fast' | 'immediate') => void;
  /** SIGKILL to the postmaster: a crash, as an OOM killer or a power cut leaves it. */
  kill: () => void;
  start: () => void;
  remove: () => void;
};

function binaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin/initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql).');
  return path.join(root, newest, 'bin');
}

/** Runs a PostgreSQL binary as the postgres user (it refuses to run as root). */
function asPostgres(command: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const result = asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' }) : spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${path.basename(command)} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binaries();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-private-pg-'));
  const data = path.join(root, 'data');
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', root]);
  asPostgres(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const pgCtl = (args: string[]) => asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(root, 'log'), ...args]);
  const pid = () => Number.parseInt(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]!, 10);
  const server: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () => pgCtl(['-o', options, '-w', '-t', '60', 'start']),
    stop: (mode = 'fast') => pgCtl(['-m', mode, '-w', '-t', '60', 'stop']),
    kill: () => {
      process.kill(pid(), 'SIGKILL');
      // Its backends notice the postmaster gone and end; a new postmaster waits for them (the shared memory).
    },
    remove: () => {
      try {
        if (fs.existsSync(path.join(data, 'postmaster.pid'))) server.stop('immediate');
      } catch {
        // already stopped
      }
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  server.start();
  return server;
}
