/**
 * A write load of escrow lifecycles, as an integrator's workers send it (issue #58): writers each run lifecycles (top
 * up, create, fund, deliver, approve) until stopped, every step retried with its Idempotency-Key while the answer is
 * "try again" (503, or no answer at all). Used by the fault tests: the database going away, a rolling restart.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';

export const LIFECYCLE_AMOUNT = 1_000;

export type Answer = { status: number; ms: number; retryAfter: string | null; code?: string; message?: string; server: string; route: string; requestId?: string };

export type Load = {
  answers: Answer[];
  /** Lifecycles whose every step was acknowledged with 200. */
  completed: Array<{ buyer: string; seller: string; milestone: string }>;
  /** Answers neither 200 nor "try again": each is a failure of the test. */
  unexpected: string[];
  stop: () => Promise<void>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One request to the server at `baseUrl`; status 0 when no answer came (refused, reset, 30 s without one). */
export async function send(baseUrl: string, key: string, method: string, route: string, body?: unknown, idempotencyKey?: string): Promise<Answer & { data?: any }> {
  const started = performance.now();
  try {
    const res = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { authorization: key, 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const json = (await res.json().catch(() => ({}))) as { data?: unknown; code?: string; message?: string };
    return { status: res.status, ms: performance.now() - started, retryAfter: res.headers.get('retry-after'), code: json.code, message: json.message, data: json.data, server: baseUrl, route: `${method} ${route}`, requestId: res.headers.get('x-request-id') ?? undefined };
  } catch (error) {
    return { status: 0, ms: performance.now() - started, retryAfter: null, message: String(error), server: baseUrl, route: `${method} ${route}` };
  }
}

/**
 * `writers` writers against whichever server `target` names for each request (one server, or a balancer's pick),
 * each running lifecycles until `stop`.
 */
export async function startLifecycleLoad(target: () => string, key: string, writers = 8): Promise<Load> {
  const load: Load = { answers: [], completed: [], unexpected: [], stop: async () => {} };
  let running = true;
  const step = async (method: string, route: string, body: unknown, idempotencyKey: string) => {
    for (;;) {
      const answer = await send(target(), key, method, route, body, idempotencyKey);
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
    Array.from({ length: writers }, async (_, w) => {
      const user = async (role: string) => (await step('POST', '/v1/users', { first_name: role, last_name: `Writer${w}`, email_address: `${role}.${w}.${randomUUID()}@example.com` }, randomUUID())).id as string;
      return { buyer: await user('buyer'), seller: await user('seller') };
    }),
  );
  const writer = async (w: number) => {
    const { buyer, seller } = parties[w]!;
    for (let i = 0; running; i++) {
      const k = `${w}-${i}-${randomUUID()}`;
      if (!(await step('POST', '/v1/wallets/fund', { user_id: buyer, amount: LIFECYCLE_AMOUNT }, `${k}-top-up`))) return;
      const deal = await step(
        'POST',
        '/v1/transactions',
        {
          title: `Load deal ${k}`,
          description: 'Written while the service is under a fault',
          buyer_id: buyer,
          seller_id: seller,
          milestones: [{ title: 'Only', description: 'All of it', amount: LIFECYCLE_AMOUNT, due_date: new Date(Date.now() + 30 * 86_400_000).toISOString() }],
        },
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
  const writing = Array.from({ length: writers }, (_, w) => writer(w));
  load.stop = async () => {
    running = false;
    await Promise.all(writing);
  };
  return load;
}

/**
 * Every acknowledged lifecycle is there and none was applied twice: the ledger balances, each buyer topped up exactly
 * what its completed deals took (every buyer's wallet is empty), each seller holds exactly its completed deals' releases.
 */
export async function expectLifecyclesAppliedOnce(baseUrl: string, operatorKey: string, key: string, load: Load): Promise<void> {
  const integrity = (await send(baseUrl, operatorKey, 'GET', '/v1/operator/ledger/integrity')).data;
  expect(integrity).toMatchObject({ balanced: true, negative_accounts: [] });
  const deals = new Map<string, number>();
  for (const { seller } of load.completed) deals.set(seller, (deals.get(seller) ?? 0) + 1);
  const first = load.completed[0]!;
  const milestone = (await send(baseUrl, key, 'GET', `/v1/milestones/${first.milestone}`)).data;
  const release = LIFECYCLE_AMOUNT - milestone.milestone_fee;
  for (const { buyer, milestone: id } of load.completed) {
    expect((await send(baseUrl, key, 'GET', `/v1/milestones/${id}`)).data.status).toBe('COMPLETED');
    expect((await send(baseUrl, key, 'GET', `/v1/wallets/${buyer}`)).data.balance).toBe(0);
  }
  for (const [seller, count] of deals) expect((await send(baseUrl, key, 'GET', `/v1/wallets/${seller}`)).data.balance).toBe(count * release);
}

export function summarise(answers: Answer[]) {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return { counts, slowest_ms: Math.round(Math.max(...answers.map((a) => a.ms))) };
}
