/**
 * Two app processes on one PostgreSQL, both running the deadline runner, started after the deadlines
 * lapsed while no server was up: every lapse acts exactly once, and none is lost to the restart.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { onDatabase, startTestServer, type TestServer } from '../support/test-server';

const DEALS = 8;
const servers: TestServer[] = [];

async function api(server: TestServer, method: string, route: string, key: string, body?: unknown) {
  const res = await fetch(`${server.baseUrl}${route}`, {
    method,
    headers: { authorization: key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`${method} ${route} → ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

describe.runIf(inject('database') === 'postgres')('deadline runners on PostgreSQL', () => {
  it(`two runners racing over ${DEALS} lapsed inspections act on each exactly once, after a restart`, async () => {
    const first = await startTestServer();
    servers.push(first);
    const client = await api(first, 'POST', '/v1/operator/clients', first.operatorKey, { name: 'Runners' });
    const key = client.secret_key as string;
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('%PDF-1.4\n%proof\n')], { type: 'application/pdf' }), 'proof.pdf');
    const proof = (await (await fetch(`${first.baseUrl}/v1/files`, { method: 'POST', headers: { authorization: key }, body: form })).json()).data.url;
    const deals: Array<{ milestoneId: string; sellerId: string }> = [];
    for (let i = 0; i < DEALS; i++) {
      const buyer = await api(first, 'POST', '/v1/users', key, { first_name: 'B', last_name: `${i}`, email: `b${i}@runners.test` });
      const seller = await api(first, 'POST', '/v1/users', key, { first_name: 'S', last_name: `${i}`, email: `s${i}@runners.test` });
      await api(first, 'POST', '/v1/wallets/fund', key, { user_id: buyer.id, amount: 10_000 });
      const t = await api(first, 'POST', '/v1/transactions', key, {
        title: `Runner ${i}`,
        description: 'd',
        buyer_id: buyer.id,
        seller_id: seller.id,
        milestones: [{ title: 'M', description: 'D', amount: 10_000, due_date: new Date(Date.now() + 86_400_000).toISOString(), inspection_duration: 1 }],
      });
      const milestoneId = t.milestones[0].id;
      await api(first, 'POST', `/v1/milestones/${milestoneId}/fund`, key, { buyer_id: buyer.id });
      await api(first, 'POST', `/v1/milestones/${milestoneId}/deliver`, key, { seller_id: seller.id, proofs_of_completion: [proof] });
      deals.push({ milestoneId, sellerId: seller.id });
    }
    const databaseUrl = first.databaseUrl!;
    first.process.kill('SIGTERM');
    await new Promise((r) => first.process.once('exit', r));

    // While no server runs, every inspection lapses.
    await onDatabase(databaseUrl, (sql) => sql`update milestones set inspection_end_date = now() - interval '1 second' where client_id = ${client.id}`);

    const runnerEnv = { env: { ESCROW_DEADLINE_POLL_MS: '50' }, databaseUrl };
    const [a, b] = await Promise.all([startTestServer(runnerEnv), startTestServer(runnerEnv)]);
    servers.push(a, b);
    const deadline = Date.now() + 30_000;
    let statuses: string[] = [];
    while (Date.now() < deadline) {
      statuses = await Promise.all(deals.map(async (d) => (await api(a, 'GET', `/v1/milestones/${d.milestoneId}`, key)).status));
      if (statuses.every((s) => s === 'COMPLETED')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(statuses).toEqual(deals.map(() => 'COMPLETED'));
    for (const d of deals) {
      const milestone = await api(b, 'GET', `/v1/milestones/${d.milestoneId}`, key);
      const automatic = milestone.milestone_logs.filter((l: { is_automatic: boolean }) => l.is_automatic);
      expect(automatic).toHaveLength(1);
      expect(automatic[0].log_message).toMatch(/accepted automatically/);
      expect((await api(b, 'GET', `/v1/wallets/${d.sellerId}`, key)).balance).toBe(9_900);
    }
    expect((await api(a, 'GET', '/v1/operator/ledger/integrity', a.operatorKey)).balanced).toBe(true);
    const acted = (server: TestServer) =>
      server
        .output()
        .split('\n')
        .filter((l) => l.includes('"deadlines settled"'))
        .reduce((sum, l) => sum + (JSON.parse(l).acted as number), 0);
    // Both runners looked; between them the lapses acted exactly DEALS times.
    expect(acted(a) + acted(b)).toBe(DEALS);
  }, 180_000);
});

afterAll(async () => {
  for (const server of servers.slice(1)) await server.stop();
  await servers[0]?.stop();
});
