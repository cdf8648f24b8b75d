import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { sql, eq } from 'drizzle-orm';
import { pgTable, uuid, text, bigint, timestamp, check } from 'drizzle-orm/pg-core';

const acc = pgTable('probe_acc', { id: uuid('id').primaryKey(), name: text('name').notNull(), bal: bigint('bal', { mode: 'number' }).notNull(), at: timestamp('at', { withTimezone: true, mode: 'date' }) });
const logs = pgTable('probe_log', { id: uuid('id').primaryKey(), acc: uuid('acc').notNull(), msg: text('msg') });

async function main() {
  const client = postgres('postgres://postgres@127.0.0.1:5432/postgres', { onnotice: () => {}, debug: (c, q, p) => console.log('DEBUG', q.slice(0, 160)) });
  const db = drizzle(client);
  await db.execute(sql`drop table if exists probe_log; drop table if exists probe_acc; create table probe_acc (id uuid primary key, name text not null, bal bigint not null check (bal >= 0), at timestamptz); create table probe_log (id uuid primary key, acc uuid not null references probe_acc(id), msg text)`);
  const a = crypto.randomUUID();
  const w0 = db.$with('w0').as(db.insert(acc).values({ id: a, name: 'x', bal: 5, at: new Date() }));
  const w1 = db.$with('w1').as(db.insert(logs).values({ id: crypto.randomUUID(), acc: a, msg: 'hi' }));
  const q = db.with(w0, w1).select({ done: sql<number>`1` }).from(sql`(values (1)) as done (one)`);
  console.log(q.toSQL());
  console.log(await q.prepare('p').execute());
  console.log(await db.select().from(acc).where(sql`${acc.id} = any(${sql.placeholder('ids')}::uuid[])`).prepare('q').execute({ids: [a]}));
  console.log(await db.select().from(acc).where(sql`${acc.id} = any(${sql.param([a])}::uuid[])`).prepare('q2').execute());
  console.log(await db.execute(sql`select ${acc.bal}, ${acc.at}, count(*) from ${acc} group by 1, 2`));
  try {
    await db.update(acc).set({ bal: -1 }).where(eq(acc.id, a));
  } catch (e: any) {
    console.log('ERR', e.constructor.name, Object.keys(e), e.cause?.constructor.name, e.cause?.code, e.cause?.constraint_name, e.cause?.table_name, e.cause?.severity, String(e.message).slice(0, 100));
  }
  try {
    await db.insert(logs).values({ id: crypto.randomUUID(), acc: a, msg: 'nul\u0000x' });
  } catch (e: any) {
    console.log('ERR', e.cause?.code, e.cause?.message, e.cause?.query);
  }
  await db.transaction(async (tx) => {
    await Promise.all([tx.select().from(acc).prepare('a').execute(), tx.select().from(logs).where(eq(logs.acc, a)).prepare('b').execute()]);
  });
  await client.end();
}
main();
