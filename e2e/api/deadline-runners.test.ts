/**
 * Two app processes on one PostgreSQL, both running the deadline runner, started after the deadlines
 * lapsed while no server was up: every lapse acts exactly once, and none is lost to the restart. Then a
 * storm: more lapses than a page, which each server's background worker settles two batches at a time; and
 * a test clock's move, which wakes the background worker for what its request left.
 */
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { generateDataset, MIGRATIONS_FOLDER, postgresSession } from '../../bench/generate-data';
import { AS_DEPLOYED, createDatabase, dropDatabase, onDatabase, startTestServer, type TestServer } from '../support/test-server';

const DEALS = 8;
const servers: TestServer[] = [];
/** Databases a test made itself, dropped once the servers on them have stopped. */
const databases: string[] = [];

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

/** `count` one-milestone deals of the client `key` names, funded and delivered: under inspection. */
async function deliveredDeals(server: TestServer, key: string, count: number) {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from('%PDF-1.4\n%proof\n')], { type: 'application/pdf' }), 'proof.pdf');
  const proof = (await (await fetch(`${server.baseUrl}/v1/files`, { method: 'POST', headers: { authorization: key }, body: form })).json()).data.url;
  const deals: Array<{ transactionId: string; milestoneId: string; sellerId: string }> = [];
  for (let i = 0; i < count; i++) {
    const buyer = await api(server, 'POST', '/v1/users', key, { first_name: 'B', last_name: `${i}`, email: `b${i}@runners.test` });
    const seller = await api(server, 'POST', '/v1/users', key, { first_name: 'S', last_name: `${i}`, email: `s${i}@runners.test` });
    await api(server, 'POST', '/v1/wallets/fund', key, { user_id: buyer.id, amount: 10_000 });
    const t = await api(server, 'POST', '/v1/transactions', key, {
      title: `Runner ${i}`,
      description: 'd',
      buyer_id: buyer.id,
      seller_id: seller.id,
      milestones: [{ title: 'M', description: 'D', amount: 10_000, due_date: new Date(Date.now() + 86_400_000).toISOString(), inspection_duration: 1 }],
    });
    const milestoneId = t.milestones[0].id;
    await api(server, 'POST', `/v1/milestones/${milestoneId}/fund`, key, { buyer_id: buyer.id });
    await api(server, 'POST', `/v1/milestones/${milestoneId}/deliver`, key, { seller_id: seller.id, proofs_of_completion: [proof] });
    deals.push({ transactionId: t.id, milestoneId, sellerId: seller.id });
  }
  return deals;
}

describe.runIf(inject('database') === 'postgres')('deadline runners on PostgreSQL', () => {
  it(`two runners racing over ${DEALS} lapsed inspections act on each exactly once, after a restart`, async () => {
    const first = await startTestServer({ env: AS_DEPLOYED });
    servers.push(first);
    const client = await api(first, 'POST', '/v1/operator/clients', first.operatorKey, { name: 'Runners' });
    const key = client.secret_key as string;
    const deals = await deliveredDeals(first, key, DEALS);
    const databaseUrl = first.databaseUrl!;
    first.process.kill('SIGTERM');
    await new Promise((r) => first.process.once('exit', r));

    // While no server runs, every inspection lapses.
    await onDatabase(databaseUrl, (sql) => sql`update milestones set inspection_end_date = now() - interval '1 second' where client_id = ${client.id}`);

    const runnerEnv = { env: { ...AS_DEPLOYED, ESCROW_DEADLINE_POLL_MS: '50' }, databaseUrl };
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
    // Both runners looked; between them the lapses acted exactly DEALS times (a runner logs its count
    // when its pass ends, after a last look finds nothing more).
    await waitUntil(async () => acted(a) + acted(b) >= DEALS).catch(() => undefined);
    expect(acted(a) + acted(b)).toBe(DEALS);
  }, 180_000);

  it('two servers work through a storm of lapsed inspections in batches side by side: each acts once, in order', async () => {
    const databaseUrl = await createDatabase(process.env.TEST_DATABASE_URL!);
    databases.push(databaseUrl);
    const { client, due } = await onDatabase(databaseUrl, async (sql) => {
      await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_FOLDER });
      const dataset = await generateDataset(postgresSession(sql), { clients: 1, bigClientTransactions: 1200, otherClientTransactions: 1, states: ['under_inspection'] });
      const generated = dataset.clients[0]!;
      // Every inspection of the big client has just ended.
      const lapsed = await sql`update milestones set inspection_end_date = now() - interval '1 second' where client_id = ${generated.id} and status = 'UNDER_INSPECTION' returning id`;
      // A receiver that is away: each lapse's event is queued for it, in its transaction's place.
      await sql`update webhook_endpoints set enabled = true, url = 'http://127.0.0.1:9/hooks' where client_id = ${generated.id}`;
      return { client: generated, due: lapsed.length };
    });
    expect(due).toBeGreaterThan(1000);
    const runnerEnv = { env: { ...AS_DEPLOYED, ESCROW_DEADLINE_POLL_MS: '50' }, databaseUrl };
    const [a, b] = await Promise.all([startTestServer(runnerEnv), startTestServer(runnerEnv)]);
    servers.push(a, b);
    const waiting = () => underInspection(databaseUrl, client.id);
    for (const until = Date.now() + 90_000; Date.now() < until && (await waiting()) > 0; ) await new Promise((r) => setTimeout(r, 200));
    expect(await waiting()).toBe(0);
    const checks = await onDatabase(databaseUrl, async (sql) => {
      const [accepted] = await sql`select count(*)::int as events, count(distinct milestone_id)::int as milestones from events
        where client_id = ${client.id} and type = 'milestone.delivery_accepted' and (data->>'automatic')::boolean`;
      // Each transaction's events numbered 1, 2, 3… with no gap or repeat.
      const [broken] = await sql`select count(*)::int as n from (select transaction_id from events where client_id = ${client.id} and transaction_id is not null
        group by transaction_id having max(sequence) <> count(*) or count(distinct sequence) <> count(*)) s`;
      const [logs] = await sql`select count(*)::int as n from milestone_logs l join milestones m on m.id = l.milestone_id where m.client_id = ${client.id} and l.is_automatic`;
      const [queued] = await sql`select count(*)::int as deliveries,
          count(*) filter (where d.transaction_id is distinct from e.transaction_id or d.sequence is distinct from e.sequence)::int as misplaced
        from webhook_deliveries d join events e on e.id = d.event_id where e.client_id = ${client.id} and (e.data->>'automatic')::boolean`;
      return { accepted, broken: broken!.n as number, automaticLogs: logs!.n as number, queued };
    });
    expect(checks.accepted).toEqual({ events: due, milestones: due });
    expect(checks.queued).toEqual({ deliveries: due, misplaced: 0 });
    expect(checks.broken).toBe(0);
    expect(checks.automaticLogs).toBe(due);
    expect((await api(a, 'GET', '/v1/operator/ledger/integrity', a.operatorKey)).balanced).toBe(true);
    await waitUntil(async () => acted(a) + acted(b) >= due).catch(() => undefined);
    expect(acted(a) + acted(b)).toBe(due);
  }, 240_000);

  it('a test clock moved past more lapses than its own request settles wakes the background worker: the rest settle without waiting for a poll', async () => {
    const databaseUrl = await createDatabase(process.env.TEST_DATABASE_URL!);
    databases.push(databaseUrl);
    const client = await onDatabase(databaseUrl, async (sql) => {
      await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_FOLDER });
      const dataset = await generateDataset(postgresSession(sql), { clients: 1, bigClientTransactions: 500, otherClientTransactions: 1, states: ['under_inspection'] });
      return dataset.clients[0]!;
    });
    // The runner's poll is ten minutes away: only the clock's move can start its pass within this test.
    const server = await startTestServer({ env: { ...AS_DEPLOYED, ESCROW_DEADLINE_POLL_MS: '600000' }, databaseUrl });
    servers.push(server);
    const waiting = () => underInspection(databaseUrl, client.id);
    const due = await waiting();
    // More than the clock request's own page of 400.
    expect(due).toBeGreaterThan(420);

    const moved = await api(server, 'POST', '/v1/test-clock/advance', client.secretKey, { days: 400 });
    expect(moved.settled).toBeGreaterThan(0);
    expect(moved.settled).toBeLessThan(due);
    // Well inside the poll's ten minutes, with room for a busy machine (the background worker runs at a lower priority).
    for (const until = Date.now() + 150_000; Date.now() < until && (await waiting()) > 0; ) await new Promise((r) => setTimeout(r, 500));
    expect(await waiting()).toBe(0);
    const [accepted] = await onDatabase(databaseUrl, (sql) => sql`select count(distinct milestone_id)::int as n from events
      where client_id = ${client.id} and type = 'milestone.delivery_accepted' and (data->>'automatic')::boolean`);
    expect(accepted!.n).toBe(due);
  }, 240_000);

  it('a lapse that cannot be settled is logged and left due; the rest of its batch settles around it, and it settles once mended', async () => {
    const server = await startTestServer({ env: AS_DEPLOYED });
    servers.push(server);
    const client = await api(server, 'POST', '/v1/operator/clients', server.operatorKey, { name: 'Poisoned batch' });
    const key = client.secret_key as string;
    const deals = await deliveredDeals(server, key, 3);
    const poisoned = deals[1]!;
    const escrow = (sql: Parameters<Parameters<typeof onDatabase>[1]>[0]) => sql`select id from milestone_escrows where milestone_id = ${poisoned.milestoneId}`;
    const held = await onDatabase(server.databaseUrl!, async (sql) => {
      const [row] = await sql`select balance_kobo::text as balance from ledger_accounts where id = (${escrow(sql)})`;
      // The escrow emptied behind the service's back: releasing it would overdraw it, as a defect might.
      await sql`update ledger_accounts set balance_kobo = 0 where id = (${escrow(sql)})`;
      return row!.balance as string;
    });
    const status = async (milestoneId: string) => (await api(server, 'GET', `/v1/milestones/${milestoneId}`, key)).status as string;

    await api(server, 'POST', '/v1/test-clock/advance', key, { days: 5 });
    for (const deal of [deals[0]!, deals[2]!]) await waitUntil(async () => (await status(deal.milestoneId)) !== 'UNDER_INSPECTION');
    expect(await status(poisoned.milestoneId)).toBe('UNDER_INSPECTION');
    const failures = server.output().split('\n').filter((l) => l.includes('"a lapse could not be settled"'));
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((l) => JSON.parse(l).transaction_id === poisoned.transactionId)).toBe(true);

    await onDatabase(server.databaseUrl!, (sql) => sql`update ledger_accounts set balance_kobo = ${held}::bigint where id = (${escrow(sql)})`);
    await waitUntil(async () => (await status(poisoned.milestoneId)) !== 'UNDER_INSPECTION');
    expect((await api(server, 'GET', '/v1/operator/ledger/integrity', server.operatorKey)).balanced).toBe(true);
  }, 120_000);
});

/** The client's milestones still under inspection, read straight from the database. */
const underInspection = (databaseUrl: string, clientId: string) =>
  onDatabase(databaseUrl, async (sql) => (await sql`select count(*)::int as n from milestones where client_id = ${clientId} and status = 'UNDER_INSPECTION'`)[0]!.n as number);

async function waitUntil(done: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Lapses a server's runners say they settled, from its log. */
const acted = (server: TestServer) =>
  server
    .output()
    .split('\n')
    .filter((l) => l.includes('"deadlines settled"'))
    .reduce((sum, l) => sum + (JSON.parse(l).acted as number), 0);

// Each test's servers stop when it ends: the PostgreSQL the suite shares has connections for a few servers at a time.
// Servers started later may use the database of one started before (stopping that one drops it): they stop first.
afterEach(async () => {
  for (const server of servers.splice(0).reverse()) await server.stop();
});

afterAll(async () => {
  for (const url of databases) await dropDatabase(process.env.TEST_DATABASE_URL!, url);
});
