/**
 * The benchmark's data generator (bench/generate-data.ts, issue #28) writes what the services write: on a
 * fresh database of its own (PGlite, or PostgreSQL when TEST_DATABASE_URL is set) a small dataset passes
 * the operator's ledger audit, and the API answers for its transactions, milestones, events and wallets
 * with that client's key, every answer within its response schema (support/api.ts checks them).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset, generatorPool, MIGRATIONS_FOLDER, pgliteSession, postgresSession, type GeneratedDataset } from '../../bench/generate-data';
import { call as callServer, expectOk } from './support/api';
import { createDatabase, dropDatabase, onDatabase, startTestServer, type TestServer } from '../support/test-server';

const TRANSACTIONS = 200;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * A record with what differs between any two deals masked: ids, instants, amounts, names, and the
 * numbers and dates inside log lines. What remains is what the services decide: keys, statuses, flags,
 * allowed actions, actors, wording.
 */
function shape(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => shape(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, shape(v, k)]));
  if (typeof value === 'number') return /amount|balance|fee|total/.test(key) ? '<money>' : value;
  if (typeof value !== 'string') return value;
  if (['title', 'description', 'first_name', 'last_name', 'user_name', 'email', 'default_email', 'name', 'account_reference', 'transaction_contract_url'].includes(key)) return '<text>';
  if (/^\d{4}-\d\d-\d\dT/.test(value)) return '<instant>';
  return value.replace(UUID, '<id>').replace(/₦[\d,]+\.\d\d/g, '₦<n>').replace(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d WAT/g, '<when>');
}

/** A fresh migrated database filled by the generator: a PGlite data directory, or a PostgreSQL database of its own. */
async function generatedDatabase(): Promise<{ dataset: GeneratedDataset; dataDir?: string; databaseUrl?: string }> {
  const options = { clients: 2, bigClientTransactions: TRANSACTIONS, otherClientTransactions: TRANSACTIONS };
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const databaseUrl = await createDatabase(adminUrl);
    // A connection per core, as the benchmark generates: each big insert is split between them.
    const pool = generatorPool(databaseUrl);
    try {
      await migratePostgres(drizzlePostgres(pool), { migrationsFolder: MIGRATIONS_FOLDER });
      return { dataset: await generateDataset(postgresSession(pool), options), databaseUrl };
    } finally {
      await pool.end();
    }
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-generated-'));
  const pg = new PGlite(path.join(dataDir, 'pgdata'));
  try {
    await migratePglite(drizzlePglite(pg), { migrationsFolder: MIGRATIONS_FOLDER });
    return { dataset: await generateDataset(pgliteSession(pg), options), dataDir };
  } finally {
    await pg.close();
  }
}

describe('generated benchmark data', () => {
  let server: TestServer;
  let dataset: GeneratedDataset;
  let databaseUrl: string | undefined;
  let cleanUp: () => Promise<void>;

  async function call(method: string, path: string, key = dataset.clients[0]!.secretKey) {
    return expectOk(await callServer(method, path, { key, baseUrl: server.baseUrl }));
  }

  beforeAll(async () => {
    const generated = await generatedDatabase();
    dataset = generated.dataset;
    databaseUrl = generated.databaseUrl;
    server = await startTestServer({ dataDir: generated.dataDir, databaseUrl: generated.databaseUrl });
    cleanUp = async () => {
      await server?.stop();
      if (generated.dataDir) fs.rmSync(generated.dataDir, { recursive: true, force: true });
      if (generated.databaseUrl) await dropDatabase(process.env.TEST_DATABASE_URL!, generated.databaseUrl);
    };
  }, 120_000);
  afterAll(() => cleanUp?.());

  it('writes a completed milestone as the services do: the same record and log lines as a deal made through the API', async () => {
    const key = dataset.clients[1]!.secretKey;
    const post = (path: string, body: unknown) => callServer('POST', path, { key, body, baseUrl: server.baseUrl }).then(expectOk);
    const user = (first: string) => post('/v1/users', { first_name: first, last_name: 'Live', email_address: `${first}.${Date.now()}@live.example.com` });
    const [buyer, seller] = [await user('buyer'), await user('seller')];
    await post('/v1/wallets/fund', { user_id: buyer.id, amount: 100_000 });
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')], { type: 'image/png' }), 'proof.png');
    const proof = (await (await fetch(`${server.baseUrl}/v1/files`, { method: 'POST', headers: { authorization: key }, body: form })).json()).data.url;
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    const live = await post('/v1/transactions', {
      title: 'Order live',
      description: 'Goods bought through the marketplace',
      buyer_id: buyer.id,
      seller_id: seller.id,
      milestones: [
        { title: 'Deposit', description: 'Goods as described', amount: 1234.5, due_date: inDays(30) },
        { title: 'Balance', description: 'Goods as described', amount: 2000, due_date: inDays(60) },
      ],
    });
    const first = live.milestones[0].id;
    await post(`/v1/milestones/${first}/fund`, { buyer_id: buyer.id });
    await post(`/v1/milestones/${first}/deliver`, { seller_id: seller.id, proofs_of_completion: [proof] });
    await post(`/v1/milestones/${first}/approve`, { buyer_id: buyer.id });
    await post(`/v1/milestones/${live.milestones[1].id}/fund`, { buyer_id: buyer.id });

    const generated = (await call('GET', '/v1/transactions?status=MILESTONE_IN_PROGRESS&limit=100', key)).transactions;
    const candidates = await Promise.all(generated.map((t: { id: string }) => call('GET', `/v1/transactions/${t.id}`, key)));
    const secondInProgress = candidates.find((t) => t.milestones[0].status === 'COMPLETED' && t.commission_payer === 'SELLER_100');
    expect(secondInProgress, 'a generated deal on its second milestone').toBeDefined();
    const real = await call('GET', `/v1/milestones/${first}`, key);
    const made = await call('GET', `/v1/milestones/${secondInProgress.milestones[0].id}`, key);
    expect(shape(made)).toEqual(shape(real));
    const realDeal = await call('GET', `/v1/transactions/${live.id}`, key);
    // Transaction-level allowed actions depend on due dates (a buyer may cancel past one), so they are compared apart.
    const { allowed_actions: _realAllowed, ...realRest } = realDeal;
    const { allowed_actions: _madeAllowed, ...madeRest } = secondInProgress;
    expect(shape(madeRest)).toEqual(shape(realRest));

    const eventsOf = async (transactionId: string) => (await call('GET', `/v1/events?transaction_id=${transactionId}&limit=20`, key)).events;
    const [realEvents, madeEvents] = [await eventsOf(live.id), await eventsOf(secondInProgress.id)];
    expect(madeEvents.map((e: { type: string }) => e.type)).toEqual(realEvents.map((e: { type: string }) => e.type));
    // Again the transaction's allowed actions aside: the API's deal and the generated one differ only in due dates.
    const withoutTransactionActions = (data: any) => {
      const transaction = data.transaction ?? data.milestone?.transaction;
      if (transaction) delete transaction.allowed_actions;
      return shape(data);
    };
    for (const [index, real] of realEvents.entries()) {
      expect(withoutTransactionActions(madeEvents[index].data), `${real.type} (sequence ${real.sequence})`).toEqual(withoutTransactionActions(real.data));
    }

    const topUps = (await call('GET', '/v1/events?type=wallet.funded&limit=100', key)).events;
    const realTopUp = topUps.find((e: { data: { wallet: { user_id: string } } }) => e.data.wallet.user_id === buyer.id);
    const madeTopUp = topUps.find((e: { data: { wallet: { user_id: string } } }) => e.data.wallet.user_id !== buyer.id);
    expect(shape(madeTopUp)).toEqual(shape(realTopUp));

    // The buyer's inspection email each delivery queues, as the client's outbox lists it.
    const emails: Array<{ event_id: string }> = [];
    for (let page = 1, total = 1; emails.length < total; page++) {
      const listed = await call('GET', `/v1/emails?limit=100&page=${page}`, key);
      emails.push(...listed.emails);
      total = listed.pagination.total;
    }
    const emailOf = (events: Array<{ id: string; type: string }>): any => emails.find((e) => e.event_id === events.find((v) => v.type === 'milestone.delivered')!.id);
    const [realEmail, madeEmail] = [emailOf(realEvents), emailOf(madeEvents)];
    expect(madeEmail, 'the generated delivery’s email').toBeDefined();
    const words = (email: { subject: string; text: string; html: string; status: string; kind: string }) =>
      shape({ ...email, text: email.text.replace(/Order \w+/g, 'Order <n>'), html: email.html.replace(/Order \w+/g, 'Order <n>'), to: null });
    expect(words(madeEmail)).toEqual(words(realEmail));
  });

  it('passes the ledger audit', async () => {
    const report = await call('GET', '/v1/operator/ledger/integrity', server.operatorKey);
    expect(report).toMatchObject({ balanced: true, ledger_sum_kobo: 0, unbalanced_transfers: [], accounts_not_matching_entries: [], negative_accounts: [] });
    expect(report.entries).toBeGreaterThan(TRANSACTIONS);
  });

  it.runIf(process.env.TEST_DATABASE_URL)('compresses events’ data with lz4 on PostgreSQL (the column’s setting: the API’s writes alike)', async () => {
    const methods = await onDatabase(databaseUrl!, (sql) =>
      sql`select pg_column_compression(data) as method, count(*)::int as n from events where pg_column_compression(data) is not null group by 1`);
    expect(methods.map((m) => m.method)).toEqual(['lz4']);
    expect(methods[0]!.n).toBeGreaterThan(TRANSACTIONS);
  });

  it.runIf(process.env.TEST_DATABASE_URL)('keeps every list total as counting its table gives it (set once at the end of the load)', async () => {
    const differing = await onDatabase(databaseUrl!, (sql) => sql`
      with kept as (
        select list, scope, facet, sum(n)::bigint as n
        from (select list, scope, facet, n from list_counts union all select list, scope, facet, n from list_count_changes) k
        group by 1, 2, 3 having sum(n) <> 0)
      (select 'kept' as side, * from (select * from kept except select * from counted_list_totals()) a)
      union all (select 'counted', * from (select * from counted_list_totals() except select * from kept) b)`);
    expect(differing).toEqual([]);
  });

  it('lists each client its own transactions, in every state', async () => {
    const [first, second] = dataset.clients;
    const page = await call('GET', '/v1/transactions?page=1&limit=100&sort=DESC');
    expect(page.pagination.total).toBe(TRANSACTIONS);
    const other = await call('GET', '/v1/transactions?page=1&limit=100', second!.secretKey);
    // The second client may also hold the deal made through the API beside the generated ones.
    expect(other.pagination.total).toBeGreaterThanOrEqual(TRANSACTIONS);
    const ids = new Set(page.transactions.map((t: { id: string }) => t.id));
    expect(other.transactions.some((t: { id: string }) => ids.has(t.id))).toBe(false);
    for (const status of ['MILESTONE_PENDING_FUNDING', 'MILESTONE_IN_PROGRESS', 'MILESTONE_UNDER_INSPECTION', 'MILESTONE_RETURN_AWAITING_APPROVAL', 'COMPLETED', 'CANCELED']) {
      const filtered = await call('GET', `/v1/transactions?status=${status}&limit=5`, first!.secretKey);
      expect(filtered.pagination.total, status).toBeGreaterThan(0);
      expect(filtered.transactions.every((t: { status: string }) => t.status === status)).toBe(true);
    }
  });

  it('reports the totals its writes keep: each agrees with counting the same rows', async () => {
    const total = async (path: string, query: string) => (await call('GET', `${path}?page=1&limit=1&${query}`)).pagination.total as number;
    // A date range is never kept, so the same list with one from the beginning of time is counted.
    const counted = (path: string, query: string) => total(path, `${query}&created_from=2000-01-01`);
    const someone = (await call('GET', '/v1/transactions?limit=1')).transactions[0].buyer.user_id;
    for (const query of ['sort=DESC', `user_id=${someone}`, ...['MILESTONE_PENDING_FUNDING', 'MILESTONE_IN_PROGRESS', 'COMPLETED', 'CANCELED'].flatMap((s) => [`status=${s}`, `status=${s}&user_id=${someone}`])]) {
      expect(await total('/v1/transactions', query), query).toBe(await counted('/v1/transactions', query));
    }
    expect(await total('/v1/transactions', `user_id=${someone}`)).toBeGreaterThan(0);
    expect(await total('/v1/users', 'sort=DESC')).toBe(await counted('/v1/users', 'sort=DESC'));
    const types = ['transaction.created', 'milestone.funded', 'milestone.delivered', 'wallet.funded'];
    const byType = await Promise.all(types.map((type) => total('/v1/events', `type=${type}`)));
    expect(byType.every((n) => n > 0)).toBe(true);
    expect(byType[0]).toBe(TRANSACTIONS);
  });

  it('reads a completed transaction back whole: milestones, escrows, logs and its events in sequence', async () => {
    const completed = (await call('GET', '/v1/transactions?status=COMPLETED&limit=1')).transactions[0];
    const transaction = await call('GET', `/v1/transactions/${completed.id}`);
    expect(transaction.milestones.map((m: { status: string }) => m.status)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(transaction.milestones.every((m: { milestone_escrow: { balance: number } }) => m.milestone_escrow.balance === 0)).toBe(true);
    expect(transaction.total_amount_funded).toBeGreaterThanOrEqual(transaction.transaction_amount);
    expect(transaction.is_completed).toBe(true);

    const milestone = await call('GET', `/v1/milestones/${transaction.milestones[0].id}`);
    expect(milestone.milestone_logs.map((l: { actor: string }) => l.actor)).toEqual(['client', 'buyer', 'seller', 'buyer']);
    expect(milestone.milestone_logs[3].log_message).toMatch(/^Buyer accepted the delivery; ₦[\d,]+\.\d\d released to the seller \(fee ₦[\d,]+\.\d\d\)\.$/);

    const events = await call('GET', `/v1/events?transaction_id=${completed.id}&limit=20`);
    expect(events.events.map((e: { sequence: number }) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(events.events.map((e: { type: string }) => e.type)).toEqual([
      'transaction.created',
      'milestone.funded',
      'milestone.delivered',
      'milestone.delivery_accepted',
      'milestone.funded',
      'milestone.delivered',
      'milestone.delivery_accepted',
    ]);
  });

  it('keeps a funded milestone’s money in its escrow, and an inspection running into the future', async () => {
    const funded = (await call('GET', '/v1/transactions?status=MILESTONE_IN_PROGRESS&limit=20')).transactions;
    const held = await call('GET', `/v1/transactions/${funded[0].id}`);
    const current = held.milestones.find((m: { id: string }) => m.id === held.current_milestone_id);
    expect(current.status).toBe('IN_PROGRESS');
    expect(current.milestone_escrow.balance).toBeGreaterThanOrEqual(current.amount);

    const inspected = (await call('GET', '/v1/transactions?status=MILESTONE_UNDER_INSPECTION&limit=1')).transactions[0];
    const underInspection = await call('GET', `/v1/transactions/${inspected.id}`);
    const first = underInspection.milestones[0];
    expect(first.status).toBe('UNDER_INSPECTION');
    expect(Date.parse(first.inspection_end_date)).toBeGreaterThan(Date.now());
    expect(first.allowed_actions.buyer).toEqual(expect.arrayContaining(['approve', 'reject']));
  });

  it('gives each buyer a wallet whose history and balance agree with the ledger', async () => {
    const transaction = (await call('GET', '/v1/transactions?status=COMPLETED&limit=1')).transactions[0];
    const userId = transaction.buyer.user_id;
    const wallet = await call('GET', `/v1/wallets/${userId}`);
    const history = await call('GET', `/v1/wallets/${userId}/history?limit=100`);
    expect(history.entries.length).toBeGreaterThan(1);
    if (history.pagination.total <= 100) {
      const sum = history.entries.reduce((total: number, e: { amount: number }) => total + Math.round(e.amount * 100), 0);
      expect(sum).toBe(Math.round(wallet.balance * 100));
    }
  });
});
