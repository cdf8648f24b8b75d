/**
 * The database going away under a write load (issue #58 items 1 and 4; docs/operations.md, "When the database is
 * down"): a PostgreSQL of this test's own is stopped (fast shutdown), and later killed with SIGKILL, while eight
 * writers run escrow lifecycles, each step retried with its Idempotency-Key. Every answer comes within 5 s, every
 * failure is 503 SERVICE_UNAVAILABLE with Retry-After, no lifecycle is applied twice, the ledger balances, the server
 * logs no uncaught exception, and service is back within 5 s of the database. A worker that dies during the outage is
 * replaced by one that waits for the database instead of exiting over and over.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres';
import { AS_DEPLOYED, startTestServer, type TestServer } from '../support/test-server';
import { expectLifecyclesAppliedOnce, send, startLifecycleLoad, summarise } from './support/lifecycle-load';
import { niceness, workerPids, workersStarted } from './support/worker-processes';

const WRITERS = 8;
const ANSWER_BOUND_MS = 5_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(probe: () => boolean, withinMs: number): Promise<void> {
  for (const started = Date.now(); !probe(); await sleep(100)) if (Date.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
}

/** Milliseconds from now until the API answers a write with 200 again. */
async function timeBackToService(server: TestServer, key: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    const answer = await send(server.baseUrl, key, 'POST', '/v1/users', { first_name: 'Back', last_name: 'Again', email_address: `back.${randomUUID()}@example.com` });
    if (answer.status === 200) return performance.now() - started;
    if (performance.now() - started > 60_000) throw new Error(`no 200 within 60 s of the database coming back: ${answer.status} ${answer.message}`);
    await sleep(100);
  }
}

describe.runIf(inject('database') === 'postgres')('the database goes away under a write load', () => {
  let pg: PrivatePostgres;
  let server: TestServer;
  let key = '';

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    server = await startTestServer({ databaseUrl: pg.url, env: AS_DEPLOYED });
    expect(await workersStarted(server)).toBe(2);
    const created = await send(server.baseUrl, server.operatorKey, 'POST', '/v1/operator/clients', { name: 'Outage marketplace' });
    key = created.data.secret_key;
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    pg?.remove();
  });

  for (const fault of ['stopped', 'killed'] as const) {
    it(`${fault}: every answer within 5 s, every failure a 503 with Retry-After, none applied twice, back within 5 s`, async () => {
      const outputBefore = server.output().length;
      const load = await startLifecycleLoad(() => server.baseUrl, key, WRITERS);
      await sleep(2_000);
      if (fault === 'stopped') pg.stop('fast');
      else pg.kill();
      const outageStarted = load.answers.length;
      // While the database is stopped, the background worker dies: its replacement starts into the outage and waits.
      const replaced = fault === 'stopped';
      if (replaced) process.kill(workerPids(server).find((pid) => niceness(pid) > 0)!, 'SIGKILL');
      await sleep(8_000);
      if (replaced) await until(() => server.output().includes('"msg":"database unavailable at start: waiting for it"', outputBefore), 60_000);
      // After a SIGKILL the old backends may hold shared memory for a moment: start again until it takes.
      for (let attempt = 1; ; attempt++) {
        try {
          pg.start();
          break;
        } catch (error) {
          if (attempt >= 10) throw error;
          await sleep(500);
        }
      }
      const backAfterMs = await timeBackToService(server, key);
      await sleep(2_000);
      await load.stop();

      const during = load.answers.slice(outageStarted);
      const summary = { ...summarise(load.answers), during_outage: summarise(during), back_after_ms: Math.round(backAfterMs), completed: load.completed.length };
      console.log(`database ${fault}: ${JSON.stringify(summary)}`);
      const serverErrors = server
        .output()
        .slice(outputBefore)
        .split('\n')
        .filter((line) => /"level":"(error|fatal)"|uncaught|unhandled|TypeError/i.test(line));
      expect(load.unexpected, serverErrors.join('\n')).toEqual([]);
      expect(backAfterMs).toBeLessThan(5_000);
      // A slow answer comes with what the server logged of it (its request id) and every line of the outage's seconds.
      const slow = load.answers.filter((a) => a.ms > ANSWER_BOUND_MS);
      const serverLines = server.output().slice(outputBefore).split('\n');
      const ofSlow = serverLines.filter(
        (line) => slow.some((a) => a.requestId && line.includes(a.requestId)) || /"duration_ms":\d{4,}/.test(line) || (/"level":"(warn|error|fatal)"/.test(line) && !line.includes('"msg":"request"')),
      );
      expect(slow.map((a) => `${a.route}: ${a.status} after ${Math.round(a.ms)} ms (request ${a.requestId ?? 'unanswered'}) ${a.message ?? ''}`), ofSlow.slice(0, 60).join('\n')).toEqual([]);
      const failures = load.answers.filter((a) => a.status !== 200);
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.filter((a) => a.status !== 503 || a.code !== 'SERVICE_UNAVAILABLE' || a.retryAfter === null).map((a) => `${a.status} ${a.code} ${a.message}`)).toEqual([]);
      expect(load.completed.length).toBeGreaterThan(WRITERS);
      await expectLifecyclesAppliedOnce(server.baseUrl, server.operatorKey, key, load);

      const output = server.output().slice(outputBefore);
      // The one error line is the primary's word of the worker this test killed; the replacement waited, once.
      const exited = output.match(/"msg":"worker exited; starting another"/g) ?? [];
      expect(exited).toHaveLength(replaced ? 1 : 0);
      expect(output.replace(/\{"level":"error"[^\n]*"msg":"worker exited; starting another"[^\n]*/, '')).not.toMatch(/uncaught|unhandled|TypeError|"level":"(error|fatal)"/i);
      expect(output).not.toContain('could not start');
      if (replaced) {
        await until(() => server.output().includes('"msg":"escrow desk background worker ready"', outputBefore), 30_000);
        expect(output.match(/"msg":"database unavailable at start: waiting for it"/g)).toHaveLength(1);
      }
      // Each of the three processes (two request workers, the background one) says when the database went, and again
      // only if it came and went once more while restarting: not a line per request or per pass.
      const went = output.match(/"msg":"database unavailable/g) ?? [];
      expect(went.length).toBeGreaterThan(0);
      expect(went.length).toBeLessThanOrEqual(replaced ? 7 : 6);
    }, 180_000);
  }
});
