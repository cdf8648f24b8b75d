import 'server-only';
import { getTableColumns, getTableName, sql, type Column, type SQL, type Table } from 'drizzle-orm';
import { builtOnceAround } from './built-once';

type ColumnsByKey = Map<string, Column>;
const columnsByTable = new WeakMap<Table, ColumnsByKey>();

function columnsOf(table: Table): ColumnsByKey {
  let columns = columnsByTable.get(table);
  if (!columns) {
    columns = new Map(Object.entries(getTableColumns(table)));
    columnsByTable.set(table, columns);
  }
  return columns;
}

/** A row's values keyed by the table's property names (drizzle's), as many as the write sets. */
export type PartialRow<T extends Table> = Partial<T['$inferInsert']>;

/** A value as JSON carries it into `json_to_recordset`: instants as ISO text, JSON columns as JSON. */
const jsonValue = (value: unknown) => (value instanceof Date ? value.toISOString() : (value ?? null));

/** The rows as one JSON text, keyed by column name. */
function rowsJson<T extends Table>(table: T, keys: string[], rows: PartialRow<T>[]): string {
  const columns = columnsOf(table);
  return JSON.stringify(rows.map((row) => Object.fromEntries(keys.map((key) => [columns.get(key)!.name, jsonValue((row as Record<string, unknown>)[key])]))));
}

/**
 * `json_to_recordset(<rows>) as r(<column> <type>, …)`: many rows as one JSON parameter rather than a
 * parameter per value, so a write of hundreds of rows is one short statement whose text does not depend
 * on how many rows it carries (one prepared plan), far from the protocol's limit on parameters.
 */
function recordset<T extends Table>(table: T, keys: string[], json: unknown): SQL {
  const columns = columnsOf(table);
  const definitions = keys.map((key) => {
    const column = columns.get(key)!;
    return sql`${sql.identifier(column.name)} ${sql.raw(carriedAs(column))}`;
  });
  return sql`json_to_recordset(${json}::json) as r(${sql.join(definitions, sql`, `)})`;
}

/**
 * The type a column's value is read from the recordset as. A jsonb column's value is read as json and cast:
 * json_to_recordset converts a nested value to jsonb several times slower than a cast of its text does (an
 * event's data, a few kilobytes, is most of a batch's write).
 */
const carriedAs = (column: Column) => (column.getSQLType() === 'jsonb' ? 'json' : column.getSQLType());

/** A row's value of a column in the recordset `r`, as the column's type. */
function recordValue(column: Column): SQL {
  const value = sql`r.${sql.identifier(column.name)}`;
  return carriedAs(column) === column.getSQLType() ? value : sql`${value}::${sql.raw(column.getSQLType())}`;
}

function keysOf<T extends Table>(table: T, rows: PartialRow<T>[]): string[] {
  const keys = Object.keys(rows[0] ?? {});
  const columns = columnsOf(table);
  for (const key of keys) if (!columns.has(key)) throw new Error(`no column ${key}`);
  return keys;
}

function insertStatement<T extends Table>(table: T, keys: string[], json: unknown, computed: Record<string, SQL>): SQL {
  const columns = columnsOf(table);
  const names = [...keys.map((key) => sql.identifier(columns.get(key)!.name)), ...Object.keys(computed).map((key) => sql.identifier(columns.get(key)!.name))];
  const values = [...keys.map((key) => recordValue(columns.get(key)!)), ...Object.values(computed)];
  return sql`insert into ${table} (${sql.join(names, sql`, `)}) select ${sql.join(values, sql`, `)} from ${recordset(table, keys, json)}`;
}

/** Statements built once (db/built-once.ts), by table and shape: the same few shapes recur on every step. */
const statementsByShape = new WeakMap<Table, Map<string, (values: unknown[]) => SQL>>();

function builtOncePerShape(table: Table, shape: string, build: () => SQL): (values: unknown[]) => SQL {
  let byShape = statementsByShape.get(table);
  if (!byShape) statementsByShape.set(table, (byShape = new Map()));
  let statement = byShape.get(shape);
  if (!statement) byShape.set(shape, (statement = builtOnceAround(build())));
  return statement;
}

/**
 * Inserts many rows in one statement. Every row sets the same columns (the first row's); `computed` adds
 * columns whose value is an expression over the row, read as `r.<column>`.
 */
export function insertRows<T extends Table>(table: T, rows: PartialRow<T>[], computed: Record<string, SQL> = {}): SQL {
  const keys = keysOf(table, rows);
  const json = rowsJson(table, keys, rows);
  if (Object.keys(computed).length > 0) return insertStatement(table, keys, json, computed);
  return builtOncePerShape(table, `insert ${keys.join()}`, () => insertStatement(table, keys, sql.placeholder('rows'), {}))([json]);
}

/**
 * Updates many rows by primary key (`id`) in one statement, each to its own values; every row sets the same
 * columns. Columns named in `add` are moved by the row's value rather than set to it (a balance). A row may
 * be updated only once in a statement, so the caller merges two changes of one row first. `onlyWhere` (over
 * `target` and `r`) leaves alone the rows it does not hold for.
 */
export function updateRows<T extends Table>(table: T, rows: (PartialRow<T> & { id: string })[], opts: { add?: string[]; onlyWhere?: SQL } = {}): SQL {
  const keys = keysOf(table, rows);
  const columns = columnsOf(table);
  const sets = keys
    .filter((key) => key !== 'id')
    .map((key) => {
      const column = columns.get(key)!;
      const name = sql.identifier(column.name);
      return opts.add?.includes(key) ? sql`${name} = target.${name} + ${recordValue(column)}` : sql`${name} = ${recordValue(column)}`;
    });
  const condition = opts.onlyWhere ? sql` and (${opts.onlyWhere})` : sql``;
  return sql`update ${table} as target set ${sql.join(sets, sql`, `)} from ${recordset(table, keys, rowsJson(table, keys, rows))} where target.id = r.id${condition}`;
}

/**
 * Updates one row by primary key (`id`) to the values given (undefined ones left alone), each encoded by
 * its column, as drizzle does. The same statement as drizzle's update builder, built once per set of
 * columns: the builder walks every column of the table and a tree of fragments on each call, and a
 * milestone step's update cost more CPU to build than all its other writes together.
 */
export function updateById<T extends Table>(table: T, id: string, changes: PartialRow<T>): SQL {
  const columns = columnsOf(table);
  const set = Object.entries(changes).filter(([, value]) => value !== undefined);
  if (set.length === 0) throw new Error(`updateById: nothing to set on ${getTableName(table)} ${id}`);
  const names = set.map(([key]) => {
    const column = columns.get(key);
    if (!column) throw new Error(`no column ${key}`);
    return column.name;
  });
  const statement = builtOncePerShape(table, `update ${names.join()}`, () => {
    const assignments = names.map((name, i) => sql`${sql.identifier(name)} = ${sql.placeholder(`value${i}`)}`);
    return sql`update ${table} set ${sql.join(assignments, sql`, `)} where "id" = ${sql.placeholder('id')}::uuid`;
  });
  return statement([...set.map(([key, value]) => sql.param(value, columns.get(key)!)), id]);
}
