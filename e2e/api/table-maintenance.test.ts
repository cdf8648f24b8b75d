/**
 * Table maintenance where no autovacuum runs (PGlite always; this machine's PostgreSQL too): once a
 * table has grown, the server vacuums and analyzes it, so the lists keep reading their pages straight off
 * their indexes and counting from them, however many rows a client has (lib/server/db/table-maintenance.ts).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call as callServer, expectOk } from './support/api';
import { onDatabase, startTestServer, type TestServer } from '../support/test-server';

describe('table maintenance without autovacuum', () => {
  let server: TestServer;
  let key: string;

  /** The data of a 200 answer from this suite's own server. */
  async function call(method: string, path: string, body?: unknown, as = key) {
    return expectOk(await callServer(method, path, { key: as, body, baseUrl: server.baseUrl }));
  }

  beforeAll(async () => {
    server = await startTestServer({ env: { ESCROW_MAINTENANCE_POLL_MS: '300' } });
    key = (await call('POST', '/v1/operator/clients', { name: 'Grows', mode: 'test' }, server.operatorKey)).secret_key;
  }, 60_000);
  afterAll(() => server?.stop());

  it('vacuums the transactions table once it has grown, and the list still counts and orders every transaction', async () => {
    const user = (name: string) => call('POST', '/v1/users', { first_name: name, last_name: 'Grows', email_address: `${name}.${Date.now()}@example.com` });
    const [buyer, seller] = [await user('buyer'), await user('seller')];
    const made: string[] = [];
    for (let i = 0; i < 250; i++) {
      const t = await call('POST', '/v1/transactions', {
        title: `Deal ${i}`,
        description: 'Grows the table',
        buyer_id: buyer.id,
        seller_id: seller.id,
        milestones: [{ title: 'Only', description: 'Work', amount: 100, due_date: new Date(Date.now() + 10 * 86_400_000).toISOString() }],
      });
      made.push(t.id);
    }
    const vacuumed = () => server.output().split('\n').some((line) => line.includes('"tables vacuumed"') && line.includes('"transactions":'));
    for (let waited = 0; waited < 10_000 && !vacuumed(); waited += 100) await new Promise((r) => setTimeout(r, 100));
    expect(vacuumed(), server.output()).toBe(true);

    const newest = await call('GET', '/v1/transactions?page=1&limit=20&sort=DESC');
    expect(newest.pagination.total).toBe(250);
    expect(newest.transactions.map((t: { id: string }) => t.id)).toEqual(made.slice(-20).reverse());
    const last = await call('GET', '/v1/transactions?page=13&limit=20&sort=ASC');
    expect(last.transactions.map((t: { id: string }) => t.id)).toEqual(made.slice(240));
    expect(server.output()).not.toContain('table maintenance failed');
  }, 60_000);

  it.runIf(inject('database') === 'postgres')('leaves the planner knowing how many transactions there are', async () => {
    const rows = await onDatabase(server.databaseUrl!, (sql) => sql`select relpages, reltuples from pg_class where relname = 'transactions'`);
    // -1 and 0 until a VACUUM or ANALYZE has counted them; then the count of the last one, which ran once the table had
    // grown past 8 pages (how many rows that was depends on when the runner's pass fell among the inserts).
    expect(rows[0]!.relpages).toBeGreaterThan(8);
    expect(rows[0]!.reltuples).toBeGreaterThan(0);
  });
});
