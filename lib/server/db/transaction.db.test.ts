/**
 * transactionWithLastWrite on a real database, PGlite and (with TEST_DATABASE_URL) PostgreSQL through
 * postgres.js: a last write that fails leaves nothing of its transaction and is the error thrown; one that
 * succeeds is committed with everything before it, inside another transaction (a savepoint) as well.
 */
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './client';
import { databaseErrorOf } from './database-error';
import { queryRows } from './rows';
import { transactionWithLastWrite } from './transaction';

const TABLE = `last_write_probe_${process.pid}`;
const pglite = new PGlite();
const server = process.env.TEST_DATABASE_URL ? postgres(process.env.TEST_DATABASE_URL, { max: 2, onnotice: () => undefined }) : undefined;
beforeAll(() => pglite.waitReady, 60_000);
afterAll(async () => {
  await pglite.close();
  if (server) {
    await server.unsafe(`drop table if exists ${TABLE}`);
    await server.end();
  }
});

const databases: Array<[string, () => Db]> = [['PGlite', () => drizzlePglite(pglite) as unknown as Db]];
if (server) databases.push(['PostgreSQL (postgres.js)', () => drizzlePostgres(server) as unknown as Db]);

describe.each(databases)('transactionWithLastWrite on %s', (_name, open) => {
  const insert = (db: Db, id: number, amount: number) => db.execute(sql`insert into ${sql.identifier(TABLE)} (id, amount) values (${id}, ${amount})`);
  const ids = async (db: Db) => (await queryRows<{ id: number }>(db, sql`select id from ${sql.identifier(TABLE)} order by id`)).map((r) => Number(r.id));

  it('commits the statements before the last write and the write itself', async () => {
    const db = open();
    await db.execute(sql.raw(`drop table if exists ${TABLE}`));
    await db.execute(sql.raw(`create table ${TABLE} (id int primary key, amount int not null check (amount >= 0))`));
    const result = await transactionWithLastWrite(db, async (tx, last) => {
      await insert(tx, 1, 10);
      last(insert(tx, 2, 20).then(() => undefined));
      return 'done';
    });
    expect(result).toBe('done');
    expect(await ids(db)).toEqual([1, 2]);
  });

  it('throws the failed last write\'s own error and keeps nothing of its transaction', async () => {
    const db = open();
    const failure = await transactionWithLastWrite(db, async (tx, last) => {
      await insert(tx, 3, 30);
      last(insert(tx, 4, -1).then(() => undefined));
    }).catch((error: unknown) => error);
    expect(databaseErrorOf(failure)).toMatchObject({ code: '23514', constraint: `${TABLE}_amount_check` });
    expect(await ids(db)).toEqual([1, 2]);
  });

  it('inside another transaction: the outer one goes on after a good last write and ends with a failed one', async () => {
    const db = open();
    await db.transaction(async (outer) => {
      await transactionWithLastWrite(outer, async (tx, last) => last(insert(tx, 5, 50).then(() => undefined)));
      await insert(outer, 6, 60);
    });
    expect(await ids(db)).toEqual([1, 2, 5, 6]);
    const failure = await db
      .transaction(async (outer) => {
        await insert(outer, 7, 70);
        await transactionWithLastWrite(outer, async (tx, last) => last(insert(tx, 8, -1).then(() => undefined)));
      })
      .catch((error: unknown) => error);
    expect(databaseErrorOf(failure)?.code).toBe('23514');
    expect(await ids(db)).toEqual([1, 2, 5, 6]);
  });
});
