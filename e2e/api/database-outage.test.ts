/**
 * The database going away under a write load (issue #58 items 1 and 4; docs/operations.md, "When the database is
 * down"): a PostgreSQL of this test's own is stopped (fast shutdown), and later killed with SIGKILL, while eight
 * writers run escrow lifecycles, each step retried with its Idempotency-Key. Every answer comes within 5 s, every
 * failure is 503 SERVICE_UNAVAILABLE with Retry-After, no lifecycle is applied twice, the ledger balances, the server
 * logs no uncaught exception, and service is back within 5 s of the database.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres';
import { startTestServer, type TestServer } from '../support/test-server';

const WRITERS = 8;
const AMOUNT = 1_000;
const ANSWER_BOUND_MS = 5_000;

type Answer = { status: number; ms: number; retryAfter: string | null; code?: string; message?: string };

type Load = {
  answers: Answer[];
  /** Lifecycles whose every step was acknowledged with 200. */
  completed: Array<{ buyer: string; seller: string; milestone: string }>;
  unexpected: string[];
  stop: () => Promise<void>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function send(server: TestServer, key: string, method: string, route: string, body: unknown, idempotencyKey?: string): Promise<Answer & { data?: any }> {
  const started = performance.now();
  try {
    const res = await fetch(`${server.baseUrl}${route}`, {
      method,
      headers: { authorization: key, 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const json = (await res.json().catch(() => ({}))) as { data?: unknown; code?: string; message?: string };
    return { status: res.status, ms: performance.now() - started, retryAfter: res.headers.get('retry-after'), code: json.code, message: json.message, data: json.data };
  } catch (error) {
    return { status: 0, ms: performance.now() - started, retryAfter: null, message: String(error) };
  }
}

/** Eight writers, each running lifecycles (top up, create, fund, deliver, approve) until stopped; every step retried with its key. */
async function startLoad(server: TestServer, key: string): Promise<Load> {
  const load: Load = { answers: [], completed: [], unexpected: [], stop: async () => {} };
  let running = true;
  const step = async (method: string, route: string, body: unknown, idempotencyKey: string) => {
    for (;;) {
      const answer = await send(server, key, method, route, body, idempotencyKey);
      load.answers.push(answer);
      if (answer.status === 200) return answer.data;
      if (answer.status !== 503 && answer.status !== 0) {
        load.unexpected.push(`${method} ${route}: ${answer.status} ${answer.code} ${answer.message}`);
        return undefined;
      }
      await sleep(250);
    }
  };
  const parties = await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      const user = async (role: string) => (await send(server, key, 'POST', '/v1/users', { first_name: role, last_name: `Writer${w}`, email_address: `${role}.${w}.${randomUUID()}@example.com` })).data.id as string;
      return { buyer: await user('buyer'), seller: await user('seller') };
    }),
  );
  const writer = async (w: number) => {
    const { buyer, seller } = parties[w]!;
    for (let i = 0; running; i++) {
      const k = `${w}-${i}-${randomUUID()}`;
      if (!(await step('POST', '/v1/wallets/fund', { user_id: buyer, amount: AMOUNT }, `${k}-top-up`))) return;
      const deal = await step(
        'POST',
        '/v1/transactions',
        { title: `Outage deal ${k}`, description: 'Written while the database comes and goes', buyer_id: buyer, seller_id: seller, milestones: [{ title: 'Only', description: 'All of it', amount: AMOUNT, due_date: new Date(Date.now() + 30 * 86_400_000).toISOString() }] },
        `${k}-create`,
      );
      const milestone = deal?.milestones?.[0]?.id as string | undefined;
      if (!milestone) return;
      if (!(await step('POST', `/v1/milestones/${milestone}/fund`, { buyer_id: buyer }, `${k}-fund`))) return;
      if (!(await step('POST', `/v1/milestones/${milestone}/deliver`, { seller_id: seller, proofs_of_completion: ['https://example.com/waybill.pdf'] }, `${k}-deliver`))) return;
      if (!(await step('POST', `/v1/milestones/${milestone}/approve`, { buyer_id: buyer }, `${k}-approve`))) return;
      load.completed.push({ buyer, seller, milestone });
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
  load.stop = async () => {
    running = false;
    await Promise.all(writers);
  };
  return load;
}

/** Milliseconds from now until the API answers a write with 200 again. */
async function timeBackToService(server: TestServer, key: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    const answer = await send(server, key, 'POST', '/v1/users', { first_name: 'Back', last_name: 'Again', email_address: `back.${randomUUID()}@example.com` });
    if (answer.status === 200) return performance.now() - started;
    if (performance.now() - started > 60_000) throw new Error(`no 200 within 60 s of the database coming back: ${answer.status} ${answer.message}`);
    await sleep(100);
  }
}

async function checkOutcome(server: TestServer, key: string, load: Load) {
  const integrity = (await send(server, server.operatorKey, 'GET', '/v1/operator/ledger/integrity', undefined)).data;
  expect(integrity).toMatchObject({ balanced: true, negative_accounts: [] });
  // None applied twice: each buyer topped up exactly what its completed deals took, so every buyer's wallet is
  // empty; each seller has exactly its completed deals' releases.
  const byParty = new Map<string, number>();
  for (const { seller } of load.completed) byParty.set(seller, (byParty.get(seller) ?? 0) + 1);
  const first = load.completed[0]!;
  const milestone = (await send(server, key, 'GET', `/v1/milestones/${first.milestone}`, undefined)).data;
  const release = AMOUNT - milestone.milestone_fee;
  for (const { buyer, milestone: id } of load.completed) {
    expect((await send(server, key, 'GET', `/v1/milestones/${id}`, undefined)).data.status).toBe('COMPLETED');
    expect((await send(server, key, 'GET', `/v1/wallets/${buyer}`, undefined)).data.balance).toBe(0);
  }
  for (const [seller, deals] of byParty) expect((await send(server, key, 'GET', `/v1/wallets/${seller}`, undefined)).data.balance).toBe(deals * release);
}

function summarise(answers: Answer[]) {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return { counts, slowest_ms: Math.round(Math.max(...answers.map((a) => a.ms))) };
}

/**
 * Not yet in the PostgreSQL pass: one request in about a thousand still waits 30 s for its 503 after a fast stop (issue
 * #58, open). ESCROW_FAULT_TESTS=1 with TEST_DATABASE_URL runs it.
 */
describe.runIf(inject('database') === 'postgres' && process.env.ESCROW_FAULT_TESTS === '1')('the database goes away under a write load', () => {
  let pg: PrivatePostgres;
  let server: TestServer;
  let key = '';

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    server = await startTestServer({ databaseUrl: pg.url });
    const created = await send(server, server.operatorKey, 'POST', '/v1/operator/clients', { name: 'Outage marketplace' });
    key = created.data.secret_key;
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    pg?.remove();
  });

  for (const fault of ['stopped', 'killed'] as const) {
    it(`${fault}: every answer within 5 s, every failure a 503 with Retry-After, none applied twice, back within 5 s`, async () => {
      const outputBefore = server.output().length;
      const load = await startLoad(server, key);
      await sleep(2_000);
      if (fault === 'stopped') pg.stop('fast');
      else pg.kill();
      const outageStarted = load.answers.length;
      await sleep(8_000);
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
      const slowLines = server
        .output()
        .slice(outputBefore)
        .split('\n')
        .filter((line) => /"duration_ms":\d{4,}/.test(line) && Number(/"duration_ms":(\d+)/.exec(line)![1]) > ANSWER_BOUND_MS);
      expect(load.answers.filter((a) => a.ms > ANSWER_BOUND_MS).map((a) => `${a.status} after ${Math.round(a.ms)} ms`), slowLines.join('\n')).toEqual([]);
      const failures = load.answers.filter((a) => a.status !== 200);
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.filter((a) => a.status !== 503 || a.code !== 'SERVICE_UNAVAILABLE' || a.retryAfter === null).map((a) => `${a.status} ${a.code} ${a.message}`)).toEqual([]);
      expect(load.completed.length).toBeGreaterThan(WRITERS);
      await checkOutcome(server, key, load);

      const output = server.output().slice(outputBefore);
      expect(output).not.toMatch(/uncaught|unhandled|TypeError|"level":"(error|fatal)"/i);
      // Each of the three processes (two request workers, the background one) says when the database went, and again
      // only if it came and went once more while restarting: not a line per request or per pass.
      const went = output.match(/"msg":"database unavailable/g) ?? [];
      expect(went.length).toBeGreaterThan(0);
      expect(went.length).toBeLessThanOrEqual(6);
    }, 180_000);
  }
});
