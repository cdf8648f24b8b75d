import 'server-only';
import { getTableColumns, getTableName, type Column, type Table } from 'drizzle-orm';
import type { DbOrTx, Tx } from './client';
import { PipeliningClient } from './pipelining-client';
import { connectionOf } from './reusable-query';

/**
 * SQL text around its values, for the writes of a WriteBatch. Built with plain strings rather than
 * drizzle's query builders: building and rendering a batch through drizzle (its `sql` chunks, walked
 * with an entity check per chunk) was about a tenth of the server's CPU per lifecycle operation. The
 * text of a given batch shape is always the same, so the database prepares it once per connection.
 * A value that is itself a WriteSql is spliced in; any other value becomes a parameter.
 */
export class WriteSql {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {}
}

/** A write's SQL as a template: `writeSql\`update accounts set … where id = ${id}\``. */
export function writeSql(strings: TemplateStringsArray, ...values: unknown[]): WriteSql {
  return new WriteSql(strings, values);
}

/** Fragments joined by a separator, such as the rows of a VALUES list. */
export function joinWriteSql(parts: readonly WriteSql[], separator = ', '): WriteSql {
  if (parts.length === 0) throw new Error('joinWriteSql needs at least one part');
  return new WriteSql(['', ...parts.slice(1).map(() => separator), ''], parts);
}

const SQL_NAME = /^[a-z_][a-z0-9_]*$/;

/** One of our own lower-case names, quoted; never a value from a request. */
function quoted(name: string): string {
  if (!SQL_NAME.test(name)) throw new Error(`not a plain SQL name: ${name}`);
  return `"${name}"`;
}

type ColumnOf = { key: string; column: Column; sqlName: string };
/** What the statements of a table share, worked out once: its columns, its quoted name, its insert's head. */
type TableSql = { columns: ColumnOf[]; name: string; insertHead: string };
const sqlByTable = new WeakMap<Table, TableSql>();

function sqlOf(table: Table): TableSql {
  let known = sqlByTable.get(table);
  if (!known) {
    const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({ key, column, sqlName: quoted(column.name) }));
    const name = quoted(getTableName(table));
    known = { columns, name, insertHead: `insert into ${name} (${columns.map((c) => c.sqlName).join(', ')}) values ` };
    sqlByTable.set(table, known);
  }
  return known;
}

/** A JS value as the driver takes it, by the column's own mapping (a Date to ISO text, JSON to text, …). */
function driverValue(column: Column, value: unknown): unknown {
  if (value === null || value instanceof WriteSql) return value;
  return column.mapToDriverValue(value);
}

const DEFAULT = new WriteSql(['default'], []);

/**
 * `insert into "table" (every column) values (…), (…)`: a key left undefined takes the column's default,
 * as drizzle's insert does.
 */
export function insertRows<T extends Table>(table: T, rows: readonly T['$inferInsert'][]): WriteSql {
  if (rows.length === 0) throw new Error(`insertRows into ${getTableName(table)} needs at least one row`);
  const { columns, insertHead } = sqlOf(table);
  const tuples = rows.map((row) => {
    const record = row as Record<string, unknown>;
    const values = columns.map(({ key, column }) => (record[key] === undefined ? DEFAULT : driverValue(column, record[key])));
    return new WriteSql(['(', ...values.slice(1).map(() => ', '), ')'], values);
  });
  return new WriteSql([insertHead, ''], [joinWriteSql(tuples)]);
}

/** `update "table" set … where id = …` for the keys given (undefined ones skipped); a WriteSql value is an expression. */
export function updateById<T extends Table>(table: T, id: string, set: { [K in keyof T['$inferInsert']]?: T['$inferInsert'][K] | WriteSql }): WriteSql {
  const record = set as Record<string, unknown>;
  const { columns, name } = sqlOf(table);
  const assigned = columns.filter(({ key }) => record[key] !== undefined);
  if (assigned.length === 0) throw new Error(`updateById on ${name} sets nothing`);
  const strings = [`update ${name} set ${assigned[0]!.sqlName} = `];
  for (const { sqlName } of assigned.slice(1)) strings.push(`, ${sqlName} = `);
  strings.push(' where id = ', '');
  return new WriteSql(strings, [...assigned.map(({ key, column }) => driverValue(column, record[key])), id]);
}

/** Names a batch's earlier write, so that a later one can read its RETURNING rows. */
export function writeName(name: string): WriteSql {
  return new WriteSql([quoted(name)], []);
}

function render(fragment: WriteSql, out: { text: string; params: unknown[] }): void {
  out.text += fragment.strings[0];
  for (let i = 0; i < fragment.values.length; i++) {
    const value = fragment.values[i];
    if (value instanceof WriteSql) render(value, out);
    else {
      out.params.push(value);
      out.text += `$${out.params.length}`;
    }
    out.text += fragment.strings[i + 1];
  }
}

type Session = { session: { prepareQuery: (query: { sql: string; params: unknown[] }, fields: undefined, name: undefined, arrayMode: boolean) => { execute: () => Promise<unknown> } } };

/**
 * Writes collected during an operation and sent as one statement: each one a data-modifying CTE
 * (`with w0 as (insert …), w1 as (update …) select 1`). On this kind of machine a round trip costs more
 * than the work of a small insert, and an operation wrote up to ten rows one statement at a time.
 *
 * One statement means one snapshot: a write cannot see another write of the same batch, and a row must
 * not be updated twice in one batch (PostgreSQL would keep only one of the updates). Callers compute
 * the final values first (a transfer's postings are summed per account before they are staged). Foreign
 * keys are checked at the end of the statement, so a row may refer to a row inserted beside it, and any
 * failed check fails the whole batch.
 */
export class WriteBatch {
  private writes: { name: string; query: WriteSql }[] = [];

  /** Stages a write; `name` lets a later write of the batch read this one's RETURNING rows (writeName). */
  add(query: WriteSql, name = `w${this.writes.length}`): string {
    this.writes.push({ name, query });
    return name;
  }

  get size(): number {
    return this.writes.length;
  }

  async flush(db: DbOrTx): Promise<void> {
    const statement = this.take();
    // Through the session's own prepared query: the driver (pool, pool client or PGlite transaction) stays drizzle's business.
    if (statement) await (db as unknown as Session).session.prepareQuery({ sql: statement.text, params: statement.params }, undefined, undefined, false).execute();
  }

  /**
   * Flushes the batch as the transaction's last statement. On PostgreSQL it goes out with the COMMIT,
   * one round trip for both, and its error (a check, a unique key) is thrown by the transaction itself
   * rather than here; on PGlite, where a round trip costs nothing, it is flushed at once.
   */
  async flushWithCommit(tx: Tx): Promise<void> {
    const connection = connectionOf(tx);
    if (!(connection instanceof PipeliningClient)) return this.flush(tx);
    const statement = this.take();
    if (statement) connection.holdForCommit(statement.text, statement.params);
  }

  private take(): { text: string; params: unknown[] } | undefined {
    const writes = this.writes;
    this.writes = [];
    if (writes.length === 0) return undefined;
    const statement =
      writes.length === 1
        ? writes[0]!.query
        : new WriteSql(['with ', ...writes.slice(1).map(() => ', '), ' select 1'], writes.map((w) => new WriteSql([`${quoted(w.name)} as (`, ')'], [w.query])));
    const out = { text: '', params: [] as unknown[] };
    render(statement, out);
    return out;
  }
}
