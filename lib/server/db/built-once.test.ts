/**
 * builtOnce and updateById on a real database (PGlite): the flat SQL they build says and does what
 * drizzle's own rendering of the same statement does.
 */
import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, PgDialect, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtOnce, builtOnceAround } from './built-once';
import { insertRows, updateById } from './recordset';

const probes = pgTable('probes', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  size: integer('size').notNull(),
  done: boolean('is_done').notNull(),
  tags: text('tags').array().notNull(),
  detail: jsonb('detail').$type<{ note: string }>().notNull(),
  seenAt: timestamp('seen_at', { withTimezone: true }),
});

const pglite = new PGlite();
const db = drizzle(pglite);
const dialect = new PgDialect();
const ids = ['0195c0de-0000-7000-8000-000000000001', '0195c0de-0000-7000-8000-000000000002', '0195c0de-0000-7000-8000-000000000003'];

beforeAll(async () => {
  await pglite.waitReady;
  await pglite.exec(`create table probes (id uuid primary key, name text not null, size int not null, is_done boolean not null,
    tags text[] not null, detail jsonb not null, seen_at timestamptz)`);
  await db.insert(probes).values(ids.map((id, i) => ({ id, name: `probe ${i}`, size: i * 10, done: i === 2, tags: [`t${i}`], detail: { note: `n${i}` } })));
}, 60_000);
afterAll(() => pglite.close());

describe('builtOnce', () => {
  const fragment = sql`${probes.size} >= ${sql.placeholder('least')} and ${probes.name} = any(${sql.param(['probe 1', 'probe 2'])}::text[])
    and (${probes.done} = ${false} or ${probes.tags} @> ${sql.placeholder('tags')}::text[])`;

  it('renders to the same text and parameters as the fragment itself', () => {
    const flat = dialect.sqlToQuery(builtOnce(fragment));
    const original = dialect.sqlToQuery(fragment);
    expect(flat.sql).toBe(original.sql);
    expect(flat.params).toEqual(original.params);
  });

  it('selects what the fragment selects, its placeholders filled per call', async () => {
    const flat = builtOnce(fragment);
    const names = async (where: typeof fragment, values: { least: number; tags: string[] }) =>
      (await db.select({ name: probes.name }).from(probes).where(where).orderBy(probes.name).prepare('probe_names').execute(values)).map((r) => r.name);
    for (const values of [{ least: 0, tags: ['t2'] }, { least: 15, tags: ['t2'] }, { least: 0, tags: ['none'] }]) {
      expect(await names(flat, values)).toEqual(await names(fragment, values));
    }
    expect(await names(flat, { least: 0, tags: ['t2'] })).toEqual(['probe 1', 'probe 2']);
    expect(await names(flat, { least: 15, tags: ['none'] })).toEqual([]);
  });

  it('refuses text whose $n are not its parameters', () => {
    expect(() => builtOnce(sql`select '$1' as dollar, ${1} as one`)).toThrow(/\$2 where \$1 was expected|parameters/);
  });
});

describe('builtOnceAround', () => {
  it('gives the statement for each value, its text rendered once', async () => {
    const sizeOf = builtOnceAround(sql`select ${probes.size} as size from ${probes} where ${probes.name} = ${sql.placeholder('name')}`);
    expect(dialect.sqlToQuery(sizeOf(['probe 1']))).toEqual({ sql: 'select "probes"."size" as size from "probes" where "probes"."name" = $1', params: ['probe 1'], typings: ['none'] });
    expect(await db.execute(sizeOf(['probe 2']))).toMatchObject({ rows: [{ size: 20 }] });
  });

  it('takes the values in the placeholders\' order, a sql.param with its encoder', async () => {
    const named = builtOnceAround(sql`select ${probes.name} as name from ${probes} where ${probes.size} >= ${sql.placeholder('least')} and ${probes.seenAt} is distinct from ${sql.placeholder('seen')} order by 1`);
    const seenAt = sql.param(new Date('2026-11-27T00:00:00Z'), probes.seenAt);
    expect(dialect.sqlToQuery(named([15, seenAt])).params).toEqual([15, '2026-11-27T00:00:00.000Z']);
    expect(await db.execute(named([15, seenAt]))).toMatchObject({ rows: [{ name: 'probe 2' }] });
  });

  it('refuses a fragment with a value that is not a placeholder, or too few or too many values', () => {
    expect(() => builtOnceAround(sql`select ${1}`)).toThrow(/every value must be a placeholder/);
    expect(() => builtOnceAround(sql`select ${sql.placeholder('a')}, ${2}`)).toThrow(/every value must be a placeholder/);
    const pair = builtOnceAround(sql`select ${sql.placeholder('a')}, ${sql.placeholder('b')}`);
    expect(() => pair([1])).toThrow(/1 values for 2 placeholders/);
    expect(() => pair([1, 2, 3])).toThrow(/3 values for 2 placeholders/);
  });
});

describe('insertRows', () => {
  it('inserts rows of the same columns again and again, each value as its column keeps it', async () => {
    const seenAt = new Date('2026-11-27T21:00:00.5Z');
    const more = [
      { id: '0195c0de-0000-7000-8000-000000000011', name: 'json 1', size: 1, done: true, tags: ['x'], detail: { note: 'a "b"' }, seenAt },
      { id: '0195c0de-0000-7000-8000-000000000012', name: 'json 2', size: 2, done: false, tags: [], detail: { note: '' }, seenAt: null },
    ];
    await db.execute(insertRows(probes, more.slice(0, 1)));
    await db.execute(insertRows(probes, more.slice(1)));
    const rows = await db.select().from(probes).where(sql`${probes.name} like 'json %'`).orderBy(probes.name);
    expect(rows).toEqual(more);
  });
});

describe('updateById', () => {
  it('writes each value as its column encodes it and leaves the other rows alone', async () => {
    const seenAt = new Date('2026-11-27T20:45:00.123Z');
    await db.execute(updateById(probes, ids[0]!, { name: 'renamed', done: true, tags: ['a', 'b,c'], detail: { note: 'it\'s "quoted"' }, seenAt, size: undefined }));
    const [row] = await db.select().from(probes).where(eq(probes.id, ids[0]!));
    expect(row).toEqual({ id: ids[0], name: 'renamed', size: 0, done: true, tags: ['a', 'b,c'], detail: { note: 'it\'s "quoted"' }, seenAt });
    const [other] = await db.select().from(probes).where(eq(probes.id, ids[1]!));
    expect(other).toMatchObject({ name: 'probe 1', done: false, seenAt: null });
  });

  it('sets a column to null', async () => {
    await db.execute(updateById(probes, ids[0]!, { seenAt: null }));
    const [row] = await db.select({ seenAt: probes.seenAt }).from(probes).where(eq(probes.id, ids[0]!));
    expect(row!.seenAt).toBeNull();
  });

  it('refuses a change that sets nothing or names no column', () => {
    expect(() => updateById(probes, ids[0]!, { size: undefined })).toThrow(/nothing to set/);
    expect(() => updateById(probes, ids[0]!, { nope: 1 } as never)).toThrow(/no column nope/);
  });
});
