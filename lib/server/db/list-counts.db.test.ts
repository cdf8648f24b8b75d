/**
 * Kept list totals on a real, migrated database (PGlite, and PostgreSQL with TEST_DATABASE_URL): a total is
 * the folded count plus the pending changes, the same before and after a fold; folds running at once (two
 * servers) add each change exactly once; facets are spelled as the migration's triggers spell them.
 */
import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './client';
import { facetOf, foldListCounts, keptTotal } from './list-counts';
import { queryRows } from './rows';

const MIGRATIONS = 'lib/server/db/migrations';
const adminUrl = process.env.TEST_DATABASE_URL;
const databaseName = `escrow_test_counts_${process.pid}`;
const pglite = new PGlite();
let server: postgres.Sql | undefined;
let admin: postgres.Sql | undefined;

beforeAll(async () => {
  await migratePglite(drizzlePglite(pglite), { migrationsFolder: MIGRATIONS });
  if (adminUrl) {
    admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
    await admin.unsafe(`drop database if exists ${databaseName}`);
    await admin.unsafe(`create database ${databaseName}`);
    const url = new URL(adminUrl);
    url.pathname = `/${databaseName}`;
    server = postgres(url.toString(), { max: 4, onnotice: () => undefined });
    await migratePostgres(drizzlePostgres(server), { migrationsFolder: MIGRATIONS });
  }
}, 120_000);

afterAll(async () => {
  await pglite.close();
  await server?.end();
  if (admin) {
    await admin.unsafe(`drop database if exists ${databaseName}`);
    await admin.end();
  }
});

const databases: Array<[string, () => Db]> = [['PGlite', () => drizzlePglite(pglite) as unknown as Db]];
if (adminUrl) databases.push(['PostgreSQL', () => drizzlePostgres(server!) as unknown as Db]);

async function append(db: Db, scope: string, facet: string, changes: number[]) {
  for (const n of changes) await db.execute(sql`insert into list_count_changes (list, scope, facet, n) values ('events', ${scope}, ${facet}, ${n})`);
}

const pendingOf = async (db: Db, scope: string) =>
  Number((await queryRows<{ n: string }>(db, sql`select count(*) as n from list_count_changes where scope = ${scope}`))[0]!.n);

describe('facetOf', () => {
  it('spells filters as name=value pairs in name order, leaving out absent ones', () => {
    expect(facetOf()).toBe('');
    expect(facetOf({ status: undefined })).toBe('');
    expect(facetOf({ status: 'FUNDED', party: 'p1' })).toBe('party=p1&status=FUNDED');
    expect(facetOf({ user: 'u1', status: 'PAID' })).toBe('status=PAID&user=u1');
  });
});

describe.each(databases)('kept totals on %s', (_name, open) => {
  it("the migration's facet functions spell each kept filter as facetOf does", async () => {
    const db = open();
    const [a, b] = [randomUUID(), randomUUID()];
    const facets = async (call: ReturnType<typeof sql>) => (await queryRows<{ f: string }>(db, sql`select f from ${call} f`)).map((r) => r.f).sort();
    const expected = (...all: Array<Record<string, string>>) => all.map((filters) => facetOf(filters)).sort();
    expect(await facets(sql`transaction_facets('FUNDED', ${a}::uuid, ${b}::uuid)`)).toEqual(
      expected({}, { status: 'FUNDED' }, { party: a }, { party: b }, { party: a, status: 'FUNDED' }, { party: b, status: 'FUNDED' }),
    );
    expect(await facets(sql`payout_facets('PAID', ${a}::uuid)`)).toEqual(expected({}, { status: 'PAID' }, { user: a }, { user: a, status: 'PAID' }));
    expect(await facets(sql`event_facets('wallet.funded')`)).toEqual(expected({}, { type: 'wallet.funded' }));
    expect(await facets(sql`status_facets('pending')`)).toEqual(expected({}, { status: 'pending' }));
  });

  it('a total is the folded count plus the pending changes, the same before and after a fold', async () => {
    const db = open();
    const scope = randomUUID();
    await append(db, scope, '', [5, -2, 1]);
    await append(db, scope, 'type=x', [1]);
    expect(await keptTotal(db, { list: 'events', scope })).toBe(4);
    expect(await keptTotal(db, { list: 'events', scope, filters: { type: 'x' } })).toBe(1);
    expect(await keptTotal(db, { list: 'events', scope, filters: { type: 'y' } })).toBe(0);
    while ((await foldListCounts(db)) > 0);
    expect(await pendingOf(db, scope)).toBe(0);
    expect(await keptTotal(db, { list: 'events', scope })).toBe(4);
    await append(db, scope, '', [3]);
    expect(await keptTotal(db, { list: 'events', scope })).toBe(7);
    while ((await foldListCounts(db)) > 0);
    expect(await keptTotal(db, { list: 'events', scope })).toBe(7);
  });

  it('a total folded to zero leaves no row behind, and counts again from zero', async () => {
    const db = open();
    const scope = randomUUID();
    const rowsOf = async () => Number((await queryRows<{ n: string }>(db, sql`select count(*) as n from list_counts where scope = ${scope}`))[0]!.n);
    await append(db, scope, 'type=x', [1, 1]);
    await append(db, scope, 'type=y', [1]);
    while ((await foldListCounts(db)) > 0);
    expect(await rowsOf()).toBe(2);
    await append(db, scope, 'type=x', [-1, -1]);
    while ((await foldListCounts(db)) > 0);
    expect(await rowsOf()).toBe(1);
    expect(await keptTotal(db, { list: 'events', scope, filters: { type: 'x' } })).toBe(0);
    expect(await keptTotal(db, { list: 'events', scope, filters: { type: 'y' } })).toBe(1);
    await append(db, scope, 'type=x', [1]);
    while ((await foldListCounts(db)) > 0);
    expect(await keptTotal(db, { list: 'events', scope, filters: { type: 'x' } })).toBe(1);
  });

  it('folds running at once add each change exactly once', async () => {
    const db = open();
    const scope = randomUUID();
    await db.execute(sql`insert into list_count_changes (list, scope, facet, n) select 'events', ${scope}, case when i % 3 = 0 then 'type=a' else '' end, 1 from generate_series(1, 12000) i`);
    const folds = await Promise.all([0, 1, 2].map(async () => {
      let moved = 0;
      for (let n = await foldListCounts(db); n > 0; n = await foldListCounts(db)) moved += n;
      return moved;
    }));
    expect(folds.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(12000);
    expect(await pendingOf(db, scope)).toBe(0);
    expect(await keptTotal(db, { list: 'events', scope })).toBe(8000);
    expect(await keptTotal(db, { list: 'events', scope, filters: { type: 'a' } })).toBe(4000);
  });
});
