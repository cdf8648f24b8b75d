/**
 * Kill -9 the server in the middle of a load of lifecycle operations on PostgreSQL, restart it, and
 * show that every operation fully happened or not at all, the ledger balances, and retrying with the
 * same Idempotency-Keys completes each operation exactly once.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { AS_DEPLOYED, startTestServer, type TestServer } from '../support/test-server';

const CHAINS = 24;
const CRASHES = 3;
const FUNDS = 10_000;

let server: TestServer;
const databaseHolder: { first?: TestServer } = {};

async function api(method: string, route: string, key: string, body?: unknown, idempotencyKey?: string) {
  const res = await fetch(`${server.baseUrl}${route}`, {
    method,
    headers: {
      authorization: key,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json(), replayed: res.headers.get('idempotent-replayed') === 'true' };
}

type Chain = { buyerId: string; sellerId: string; milestoneId: string; proof: string };

function steps(chain: Chain, index: number) {
  return [
    ['POST', '/v1/wallets/fund', { user_id: chain.buyerId, amount: FUNDS }],
    ['POST', `/v1/milestones/${chain.milestoneId}/fund`, { buyer_id: chain.buyerId }],
    ['POST', `/v1/milestones/${chain.milestoneId}/deliver`, { seller_id: chain.sellerId, proofs_of_completion: [chain.proof] }],
    ['POST', `/v1/milestones/${chain.milestoneId}/approve`, { buyer_id: chain.buyerId }],
  ].map(([method, route, body], step) => ({ method: method as string, route: route as string, body, key: `crash-${index}-${step}` }));
}

/** Runs a chain until it finishes or the server dies under it. */
async function runChain(secretKey: string, chain: Chain, index: number, outcomes: number[]) {
  for (const step of steps(chain, index)) {
    try {
      const res = await api(step.method, step.route, secretKey, step.body, step.key);
      outcomes.push(res.status);
      if (res.status !== 200) throw new Error(`${step.method} ${step.route} → ${res.status} ${JSON.stringify(res.body)}`);
    } catch (error) {
      // Connection refused or reset, or a body cut short: the server was killed under this request.
      if (error instanceof TypeError || server.process.killed) return;
      throw error;
    }
  }
}

/** What each status proves about the money: the milestone's escrow, the buyer's and the seller's wallets, and its log lines. */
const EXPECTED: Record<string, { escrow: number; buyer: number; seller: number; logs: number }> = {
  PENDING_FUNDING: { escrow: 0, buyer: FUNDS, seller: 0, logs: 1 },
  IN_PROGRESS: { escrow: FUNDS, buyer: 0, seller: 0, logs: 2 },
  UNDER_INSPECTION: { escrow: FUNDS, buyer: 0, seller: 0, logs: 3 },
  COMPLETED: { escrow: 0, buyer: 0, seller: FUNDS * 0.99, logs: 4 },
};

async function assertAllOrNothing(secretKey: string, chains: Chain[]) {
  const integrity = (await api('GET', '/v1/operator/ledger/integrity', server.operatorKey)).body.data;
  expect(integrity.balanced, JSON.stringify(integrity)).toBe(true);
  const statuses: string[] = [];
  for (const chain of chains) {
    const milestone = (await api('GET', `/v1/milestones/${chain.milestoneId}`, secretKey)).body.data;
    const buyer = (await api('GET', `/v1/wallets/${chain.buyerId}`, secretKey)).body.data.balance;
    const seller = (await api('GET', `/v1/wallets/${chain.sellerId}`, secretKey)).body.data.balance;
    const expected = EXPECTED[milestone.status]!;
    // The top-up may or may not have landed before the milestone was funded.
    const buyerExpected = milestone.status === 'PENDING_FUNDING' ? [0, FUNDS] : [expected.buyer];
    expect(buyerExpected).toContain(buyer);
    expect({ escrow: milestone.milestone_escrow.balance, seller, logs: milestone.milestone_logs.length }).toEqual({
      escrow: expected.escrow,
      seller: expected.seller,
      logs: expected.logs,
    });
    statuses.push(milestone.status);
  }
  return statuses;
}

describe.runIf(inject('database') === 'postgres')('crash safety on PostgreSQL', () => {
  it(`survives ${CRASHES} kill -9s during ${CHAINS} concurrent lifecycles and completes each exactly once on retry`, async () => {
    server = await startTestServer({ env: AS_DEPLOYED });
    databaseHolder.first = server;
    const client = (await api('POST', '/v1/operator/clients', server.operatorKey, { name: 'Crash test' })).body.data;
    const key = client.secret_key as string;
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('%PDF-1.4\n%crash test proof\n')], { type: 'application/pdf' }), 'proof.pdf');
    const proof = (await (await fetch(`${server.baseUrl}/v1/files`, { method: 'POST', headers: { authorization: key }, body: form })).json()).data.url;
    const chains: Chain[] = [];
    for (let i = 0; i < CHAINS; i++) {
      const buyer = (await api('POST', '/v1/users', key, { first_name: 'Buyer', last_name: `${i}`, email: `buyer${i}@crash.test` })).body.data;
      const seller = (await api('POST', '/v1/users', key, { first_name: 'Seller', last_name: `${i}`, email: `seller${i}@crash.test` })).body.data;
      const t = (
        await api('POST', '/v1/transactions', key, {
          title: `Crash ${i}`,
          description: 'load',
          buyer_id: buyer.id,
          seller_id: seller.id,
          milestones: [{ title: 'M', description: 'D', amount: FUNDS, due_date: new Date(Date.now() + 86_400_000).toISOString() }],
        })
      ).body.data;
      chains.push({ buyerId: buyer.id, sellerId: seller.id, milestoneId: t.milestones[0].id, proof });
    }

    const outcomes: number[] = [];
    const seen = new Set<string>();
    const databaseUrl = server.databaseUrl!;
    for (let crash = 0; crash < CRASHES; crash++) {
      const load = Promise.all(chains.map((chain, i) => runChain(key, chain, i, outcomes)));
      // Kill once the load is well under way: a different share of the work done each time.
      const target = outcomes.length + 10 + crash * 8;
      while (outcomes.length < target) await new Promise((r) => setTimeout(r, 2));
      server.process.kill('SIGKILL');
      await load;
      // The same database, a new process (and a new operator key: the old process is gone).
      server = await startTestServer({ databaseUrl, env: AS_DEPLOYED });
      const statuses = await assertAllOrNothing(key, chains);
      for (const status of statuses) seen.add(status);
    }
    // A crash must have caught some chains half-way, or the test proved nothing.
    expect(seen.size).toBeGreaterThan(1);

    // Retry every chain from its first step with the same keys: done steps replay, the rest run once.
    const retried: Array<{ status: number; replayed: boolean }> = [];
    for (const [i, chain] of chains.entries()) {
      for (const step of steps(chain, i)) {
        const res = await api(step.method, step.route, key, step.body, step.key);
        retried.push({ status: res.status, replayed: res.replayed });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
    }
    expect(retried.some((r) => r.replayed)).toBe(true);
    expect(await assertAllOrNothing(key, chains)).toEqual(chains.map(() => 'COMPLETED'));
    console.log(
      `crash test: ${CRASHES} kill -9s, ${outcomes.length} operations answered before the kills, ${retried.filter((r) => r.replayed).length} of ${retried.length} retries replayed, every lifecycle completed exactly once`,
    );
  }, 300_000);
});

afterAll(async () => {
  if (server !== databaseHolder.first) await server?.stop();
  // The first server created the database; its stop() (its process long killed) drops it.
  await databaseHolder.first?.stop();
});
