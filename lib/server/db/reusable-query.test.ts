/**
 * Reusable queries on the preparing client against the machine's PostgreSQL (the CI's second pass sets
 * TEST_DATABASE_URL): the rows come back exactly as drizzle maps them, the server describes a statement's
 * rows once per process, and a join drizzle would null out still is.
 */
import { randomBytes } from 'node:crypto';
import { eq, getTableName, sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { boolean, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreparingClient } from './preparing-client';
import { reusableQuery, UNNAMED } from './reusable-query';
import type { DbOrTx } from './client';

const adminUrl = process.env.TEST_DATABASE_URL;
const suffix = randomBytes(4).toString('hex');
const owners = pgTable(`reusable_owner_${suffix}`, { id: integer('id').primaryKey(), name: text('name').notNull() });
const items = pgTable(`reusable_item_${suffix}`, {
  id: integer('id').primaryKey(),
  ownerId: integer('owner_id'),
  label: text('label'),
  done: boolean('done').notNull(),
  meta: jsonb('meta'),
  madeAt: timestamp('made_at', { withTimezone: true, mode: 'date' }).notNull(),
});

describe.runIf(adminUrl)('reusable queries on the preparing client', () => {
  let admin: pg.Client;
  let pool: pg.Pool;
  let db: NodePgDatabase;
  /** drizzle's node-postgres database, as the app's query helpers type it. */
  const asDb = () => db as unknown as DbOrTx;
  let describes = 0;
  const connectionPrototype = (pg as unknown as { Connection: { prototype: { describe: (...args: unknown[]) => unknown } } }).Connection.prototype;
  const describeMessage = connectionPrototype.describe;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create table ${getTableName(owners)} (id int primary key, name text not null)`);
    await admin.query(
      `create table ${getTableName(items)} (id int primary key, owner_id int, label text, done boolean not null, meta jsonb, made_at timestamptz not null)`,
    );
    await admin.query(`insert into ${getTableName(owners)} values (1, 'Ada')`);
    await admin.query(
      `insert into ${getTableName(items)} values (1, 1, 'first', true, '{"a":[1,2]}', '2026-01-02T03:04:05.678Z'), (2, null, null, false, null, '2026-02-03T04:05:06Z')`,
    );
    pool = new pg.Pool({ connectionString: adminUrl, max: 2, Client: PreparingClient });
    db = drizzle(pool);
    connectionPrototype.describe = function (this: unknown, ...args: unknown[]) {
      describes++;
      return describeMessage.apply(this, args);
    };
  });
  afterAll(async () => {
    connectionPrototype.describe = describeMessage;
    await pool?.end();
    await admin.query(`drop table if exists ${getTableName(items)}, ${getTableName(owners)}`);
    await admin.end();
  });

  const itemWithOwner = (on: DbOrTx) =>
    on
      .select({ item: items, owner: owners, labelLength: sql<number>`length(${items.label})`.mapWith(Number) })
      .from(items)
      .innerJoin(owners, eq(owners.id, items.ownerId))
      .where(eq(items.id, sql.placeholder('id')))
      .prepare(UNNAMED);
  const itemWithMaybeOwner = (on: DbOrTx) =>
    on.select({ item: items, owner: owners }).from(items).leftJoin(owners, eq(owners.id, items.ownerId)).orderBy(items.id).prepare(UNNAMED);

  it('gives the rows drizzle itself gives, typed alike, and asks the server to describe them once', async () => {
    const reused = reusableQuery(itemWithOwner);
    const expected = await itemWithOwner(asDb()).execute({ id: 1 });
    expect(expected).toEqual([
      {
        item: { id: 1, ownerId: 1, label: 'first', done: true, meta: { a: [1, 2] }, madeAt: new Date('2026-01-02T03:04:05.678Z') },
        owner: { id: 1, name: 'Ada' },
        labelLength: 5,
      },
    ]);
    expect(await reused(asDb()).execute({ id: 1 })).toEqual(expected);
    describes = 0;
    // Both connections of the pool, at once: neither asks again.
    const again = await Promise.all([1, 1, 2, 1].map((id) => reused(asDb()).execute({ id })));
    expect(again).toEqual([expected, expected, [], expected]);
    expect(describes).toBe(0);
  });

  it('still nulls out a left-joined table with no row, as drizzle does', async () => {
    const reused = reusableQuery(itemWithMaybeOwner);
    const rows = await reused(asDb()).execute();
    expect(rows).toEqual(await itemWithMaybeOwner(asDb()).execute());
    expect(rows).toEqual([
      { item: expect.objectContaining({ id: 1 }), owner: { id: 1, name: 'Ada' } },
      { item: { id: 2, ownerId: null, label: null, done: false, meta: null, madeAt: new Date('2026-02-03T04:05:06Z') }, owner: null },
    ]);
  });

  it('reports a failing execution of a described statement and goes on', async () => {
    const divide = reusableQuery((on) => on.select({ q: sql<number>`(10 / ${sql.placeholder('by')}::int)` }).from(owners).prepare(UNNAMED));
    expect(await divide(asDb()).execute({ by: 2 })).toEqual([{ q: 5 }]);
    await expect(divide(asDb()).execute({ by: 0 })).rejects.toMatchObject({ cause: { code: '22012' } });
    expect(await divide(asDb()).execute({ by: 5 })).toEqual([{ q: 2 }]);
  });
});
