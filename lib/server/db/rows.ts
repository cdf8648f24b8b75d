import 'server-only';
import { getTableColumns, sql, type Column, type SQL, type Table } from 'drizzle-orm';
import type { DbOrTx } from './client';

/**
 * The rows of one raw SQL statement, the same on both drivers: PGlite answers `{ rows }`, postgres.js an
 * array of rows. Values come as the driver gives them (timestamps as text on both, bigints as text on
 * postgres.js); a statement sent this way is not prepared.
 */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows;
}

type Decoder = { key: string; name: string; column: Column };
const decodersByTable = new WeakMap<Table, Decoder[]>();

/**
 * A table's row from its JSON (`to_jsonb` of the row, one value per table in a select), each column
 * decoded as drizzle decodes it from the driver. For the wide reads of a transaction's graph: drizzle
 * builds a select column by column, with a check on every piece of SQL, and for a few hundred columns
 * that building cost more CPU than the database spent answering.
 */
export function rowFromJson<T extends Table>(table: T, json: unknown): T['$inferSelect'] {
  let decoders = decodersByTable.get(table);
  if (!decoders) {
    decoders = Object.entries(getTableColumns(table)).map(([key, column]) => ({ key, name: column.name, column }));
    decodersByTable.set(table, decoders);
  }
  const source = json as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  for (const { key, name, column } of decoders) {
    const value = source[name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}

/**
 * Some of a table's columns, of the row named `alias` in a statement, as one JSON array, and its decoder (each value
 * decoded as drizzle decodes it from the driver): a narrow read of many rows costs less so than column by column, which
 * PGlite's client reads value by value and drizzle builds and maps one by one.
 */
export function columnsAsJson<T extends Table, K extends keyof T['$inferSelect'] & string>(table: T, alias: string, keys: readonly K[]) {
  const columns = getTableColumns(table) as Record<string, Column>;
  const picked = keys.map((key) => ({ key, column: columns[key]! }));
  return {
    sql: sql.raw(`json_build_array(${picked.map(({ column }) => `${alias}.${column.name}`).join(', ')})`),
    decode(json: unknown): Pick<T['$inferSelect'], K> {
      const values = json as unknown[];
      const row: Record<string, unknown> = {};
      picked.forEach(({ key, column }, i) => {
        const value = values[i];
        row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
      });
      return row as Pick<T['$inferSelect'], K>;
    },
  };
}
