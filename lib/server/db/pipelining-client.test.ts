/**
 * The pipelining client against the machine's PostgreSQL (the CI's second pass sets TEST_DATABASE_URL):
 * BEGIN and a held final write travel with the statements beside them, and a transaction is still all or
 * nothing. PGlite has no connection to pipeline, so there is nothing to test without PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PipeliningClient } from './pipelining-client';
import { PreparingClient } from './preparing-client';
import { WriteBatch, WriteSql, writeSql } from './write-batch';
import type { Tx } from './client';

const adminUrl = process.env.TEST_DATABASE_URL;

describe.runIf(adminUrl)('PipeliningClient on PostgreSQL', () => {
  const table = `pipelining_test_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create table ${table} (id int primary key, amount int not null check (amount >= 0))`);
  });
  afterAll(async () => {
    await admin.query(`drop table if exists ${table}`);
    await admin.end();
  });

  for (const Client of [PipeliningClient, PreparingClient]) {
    describe(Client.name, () => {
      let pool: pg.Pool;
      let db: NodePgDatabase;
      const notices: string[] = [];

      beforeAll(async () => {
        pool = new pg.Pool({ connectionString: adminUrl, max: 1, Client });
        pool.on('connect', (client) => client.on('notice', (notice) => notices.push(notice.message ?? '')));
        db = drizzle(pool);
        await admin.query(`truncate ${table}`);
      });
      afterAll(async () => pool.end());

      const ids = async () => (await admin.query(`select id, amount from ${table} order by id`)).rows;
      const insert = (id: number, amount: number) => writeSql`insert into ${new WriteSql([table], [])} (id, amount) values (${id}::int, ${amount}::int)`;

      it('keeps a transaction whose final write went out with its commit', async () => {
        await db.transaction(async (tx) => {
          await tx.execute(sql.raw(`insert into ${table} (id, amount) values (1, 10)`));
          const batch = new WriteBatch();
          batch.add(insert(2, 20));
          await batch.flushWithCommit(tx as unknown as Tx);
        });
        expect(await ids()).toEqual([{ id: 1, amount: 10 }, { id: 2, amount: 20 }]);
      });

      it('keeps nothing when the final write fails, throws its own error, and the connection goes on', async () => {
        const failure = await db
          .transaction(async (tx) => {
            await tx.execute(sql.raw(`insert into ${table} (id, amount) values (3, 30)`));
            const batch = new WriteBatch();
            batch.add(insert(4, -1));
            await batch.flushWithCommit(tx as unknown as Tx);
          })
          .catch((error: unknown) => error as { cause?: { code?: string; constraint?: string } });
        expect(failure?.cause).toMatchObject({ code: '23514', constraint: `${table}_amount_check` });
        expect(await ids()).toEqual([{ id: 1, amount: 10 }, { id: 2, amount: 20 }]);

        await db.transaction(async (tx) => {
          await tx.execute(sql.raw(`insert into ${table} (id, amount) values (5, 50)`));
        });
        expect((await ids()).map((r) => r.id)).toEqual([1, 2, 5]);
        expect(notices).toEqual([]);
      });

      it('rolls back the statements sent behind an early BEGIN when the transaction fails', async () => {
        await expect(
          db.transaction(async (tx) => {
            await tx.execute(sql.raw(`insert into ${table} (id, amount) values (6, 60)`));
            throw new Error('changed my mind');
          }),
        ).rejects.toThrow('changed my mind');
        expect((await ids()).map((r) => r.id)).toEqual([1, 2, 5]);
        expect(notices).toEqual([]);
      });

      it('refuses a statement after the held write, and keeps nothing', async () => {
        await expect(
          db.transaction(async (tx) => {
            const batch = new WriteBatch();
            batch.add(insert(7, 70));
            await batch.flushWithCommit(tx as unknown as Tx);
            await tx.execute(sql.raw(`insert into ${table} (id, amount) values (8, 80)`));
          }),
        ).rejects.toThrow();
        expect((await ids()).map((r) => r.id)).toEqual([1, 2, 5]);
      });
    });
  }
});
