/**
 * The production server as several worker processes on PostgreSQL (scripts/production-server/workers.ts):
 * both request workers answer, a change one of them makes to a client is seen by the other once it has answered
 * (they hear of it through PostgreSQL, as separate servers do), the background worker runs the pollers,
 * a worker that dies is replaced while the other goes on answering, and keep-alive connections opened all
 * at once end up spread over both request workers.
 */
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REQUEST_WORKER_HEAP_MB, requestWorkerExecArgv } from '../../scripts/production-server/workers';
import { startTestServer, type TestServer } from '../support/test-server';
import { commandLine, isAlive, niceness, workerPids, workersStarted } from './support/worker-processes';

/** One request on a connection of its own: the primary hands each new connection to the next worker. */
function freshConnection(server: TestServer, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.baseUrl}${path}`,
      { method, agent: false, headers: { authorization: key, ...(payload ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe.runIf(inject('database') === 'postgres')('a server of two worker processes', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    // Round-robin, not the server's default (each worker accepting for itself), so that these requests'
    // fresh connections reach both workers for certain.
    server = await startTestServer({ env: { ESCROW_WORKERS: '2', NODE_CLUSTER_SCHED_POLICY: 'rr' } });
    const created = await freshConnection(server, server.operatorKey, 'POST', '/v1/operator/clients', { name: 'Two workers', mode: 'test' });
    expect(created.status).toBe(200);
    key = created.body.data.secret_key;
  });
  afterAll(() => server?.stop());

  async function clockOffsets(count: number): Promise<number[]> {
    const replies = await Promise.all(Array.from({ length: count }, () => freshConnection(server, key, 'GET', '/v1/test-clock')));
    return replies.map((r) => r.body.data.offset_ms);
  }

  it('runs two request workers and a background worker, and a test clock moved through one is the clock of both once the move answers', async () => {
    // Once the second worker listens, connections alternate between the two.
    expect(await workersStarted(server)).toBe(2);
    expect(workerPids(server)).toHaveLength(3);
    // The background worker yields the processor to the request workers.
    expect(workerPids(server).map(niceness).sort()).toEqual([0, 0, 10]);
    // Request workers run with their heap bounded; the background worker with V8's default.
    const bound = `--max-old-space-size=${REQUEST_WORKER_HEAP_MB}`;
    expect(workerPids(server).map((pid) => [niceness(pid), commandLine(pid).includes(bound)]).sort()).toEqual([
      [0, true],
      [0, true],
      [10, false],
    ]);
    // Both workers now hold the client (and its clock) in their caches.
    expect(await clockOffsets(8)).toEqual(Array(8).fill(0));
    for (let day = 1; day <= 3; day++) {
      const moved = await freshConnection(server, key, 'POST', '/v1/test-clock/advance', { days: 1 });
      expect(moved.body.data.offset_ms).toBe(day * 86_400_000);
      expect(await clockOffsets(8)).toEqual(Array(8).fill(day * 86_400_000));
    }
  });

  it('replaces a worker that dies, and goes on answering meanwhile', async () => {
    const [victim] = workerPids(server);
    process.kill(victim!, 'SIGKILL');
    // A connection handed to the worker in the instant it died goes with it, as a request in flight would:
    // wait until the process is gone (on a loaded machine that can take longer than a moment), then a little.
    for (let waited = 0; waited < 10_000 && isAlive(victim!); waited += 50) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    const replies = await Promise.all(Array.from({ length: 6 }, () => freshConnection(server, key, 'GET', '/v1/test-clock')));
    expect(replies.map((r) => r.status)).toEqual(Array(6).fill(200));
    let pids: number[] = [];
    for (let attempt = 0; attempt < 300; attempt++) {
      pids = workerPids(server);
      if (pids.length === 3 && !pids.includes(victim!)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(pids).toHaveLength(3);
    expect(pids).not.toContain(victim);
    expect(server.output()).toContain('"msg":"worker exited; starting another"');
  });
});

/** The established connections to `port` that each of `pids` holds, read from /proc (the sockets each process has open). */
function connectionsByProcess(port: number, pids: number[]): number[] {
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  const established = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of fs.readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local address, state (01 is ESTABLISHED), inode
      if (fields[1]!.endsWith(`:${portHex}`) && fields[3] === '01') established.add(fields[9]!);
    }
  }
  const socketInode = (link: string) => {
    try {
      return /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(link))?.[1];
    } catch {
      return undefined; // closed meanwhile
    }
  };
  return pids.map((pid) => fs.readdirSync(`/proc/${pid}/fd`).filter((fd) => established.has(socketInode(`/proc/${pid}/fd/${fd}`) ?? '')).length);
}

describe.runIf(inject('database') === 'postgres')('keep-alive connections opened all at once', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    // The server's own default: each worker accepts for itself.
    server = await startTestServer({ env: { ESCROW_WORKERS: '2' } });
    // The background worker lowers its priority as it starts: that is how it is told apart below.
    expect(await workersStarted(server)).toBe(2);
    const created = await freshConnection(server, server.operatorKey, 'POST', '/v1/operator/clients', { name: 'Pool', mode: 'test' });
    key = created.body.data.secret_key;
  });
  afterAll(() => server?.stop());

  it('are spread over both request workers within seconds, every request answered', async () => {
    // A client's pool of 32, opened in one burst, kept busy: one worker, awake first, accepts nearly all of them.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    const port = Number(new URL(server.baseUrl).port);
    const statuses = new Set<number>();
    const get = () =>
      new Promise<void>((resolve, reject) => {
        const req = http.request(`${server.baseUrl}/v1/test-clock`, { agent, headers: { authorization: key } }, (res) => {
          statuses.add(res.statusCode ?? 0);
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end();
      });
    let busy = true;
    const loops = Array.from({ length: 32 }, async () => {
      while (busy) await get();
    });
    const requestWorkers = workerPids(server).filter((pid) => niceness(pid) === 0);
    expect(requestWorkers).toHaveLength(2);
    let held = connectionsByProcess(port, requestWorkers);
    const started = Date.now();
    while (Date.now() - started < 10_000 && Math.min(...held) < 14) {
      await new Promise((r) => setTimeout(r, 100));
      held = connectionsByProcess(port, requestWorkers);
    }
    busy = false;
    await Promise.all(loops);
    agent.destroy();
    // 32 over two workers, give or take a connection being replaced at the moment of reading.
    expect(Math.min(...held), `connections per worker after ${Date.now() - started} ms: ${held.join('/')}`).toBeGreaterThanOrEqual(14);
    expect([...statuses.keys()]).toEqual([200]);
  });
});

describe("a request worker's heap bound", () => {
  it('is added to the primary flags, unless NODE_OPTIONS or the command line already sets one', () => {
    const flags = ['--no-allocation-site-pretenuring', '--import', 'x.mjs'];
    expect(requestWorkerExecArgv(flags, undefined)).toEqual([...flags, `--max-old-space-size=${REQUEST_WORKER_HEAP_MB}`]);
    expect(requestWorkerExecArgv(flags, '--enable-source-maps')).toEqual([...flags, `--max-old-space-size=${REQUEST_WORKER_HEAP_MB}`]);
    expect(requestWorkerExecArgv(flags, '--enable-source-maps --max-old-space-size=2048')).toEqual(flags);
    expect(requestWorkerExecArgv(flags, '--max_old_space_size=1024')).toEqual(flags);
    expect(requestWorkerExecArgv([...flags, '--max-old-space-size=512'], undefined)).toEqual([...flags, '--max-old-space-size=512']);
  });
});
