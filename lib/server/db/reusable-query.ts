import 'server-only';
import { Column, getTableName, is, SQL, Subquery } from 'drizzle-orm';
import type { DbOrTx } from './client';

/**
 * The statement name to prepare reusable queries under: none, so that the connection decides whether
 * the server prepares it (PreparingClient, unless ESCROW_DB_PREPARED_STATEMENTS=0 for a pooler).
 */
export const UNNAMED = '';

type PreparedQuery = { execute: (placeholders?: Record<string, unknown>) => Promise<unknown> };

type Decoder = { mapFromDriverValue: (value: unknown) => unknown };
type SelectedField = { path: string[]; field: unknown };
/** What drizzle 0.45 keeps on a prepared select (node-postgres and PGlite alike) to turn its array rows into objects. */
type SelectInternals = {
  fields?: SelectedField[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
};

/** The decoder drizzle's mapResultRow picks for a selected field. */
function decoderOf(field: unknown): Decoder {
  const decoderOfSql = (sql: unknown) => (sql as { decoder: Decoder }).decoder;
  if (is(field, Column)) return field as unknown as Decoder;
  if (is(field, SQL)) return decoderOfSql(field);
  if (is(field, Subquery)) return decoderOfSql((field as unknown as { _: { sql: SQL } })._.sql);
  return decoderOfSql((field as { sql: SQL }).sql);
}

/**
 * The same objects drizzle's mapResultRow builds, from a plan made once per query instead of per row:
 * drizzle walks each column's path with an iterator and reduces the row through a closure, which for a
 * 150-column graph row was the largest share of what a read allocated after the driver's own.
 * Undefined where drizzle may turn a joined table's all-null columns into null (an outer join): that
 * case keeps drizzle's mapping.
 */
function compileRowMapper({ fields, joinsNotNullableMap }: SelectInternals): ((rows: unknown[][]) => unknown) | undefined {
  if (!fields) return undefined;
  if (joinsNotNullableMap) {
    for (const { path, field } of fields) {
      if (path.length === 2 && is(field, Column) && !joinsNotNullableMap[getTableName(field.table)]) return undefined;
    }
  }
  const plan = fields.map(({ path, field }) => ({ parents: path.slice(0, -1), key: path[path.length - 1]!, decoder: decoderOf(field) }));
  const mapRow = (row: unknown[]) => {
    const result: Record<string, unknown> = {};
    for (let i = 0; i < plan.length; i++) {
      const { parents, key, decoder } = plan[i]!;
      let node = result;
      for (const parent of parents) node = (node[parent] ??= {}) as Record<string, unknown>;
      const raw = row[i];
      node[key] = raw === null ? null : decoder.mapFromDriverValue(raw);
    }
    return result;
  };
  return (rows) => rows.map(mapRow);
}

/** The prepared query with its rows mapped by a compiled plan, where drizzle's own mapping is not needed. */
function withCompiledRows<Q extends PreparedQuery>(prepared: Q): Q {
  const internals = prepared as unknown as SelectInternals;
  if (internals.customResultMapper) return prepared;
  const mapper = compileRowMapper(internals);
  if (mapper) internals.customResultMapper = mapper;
  return prepared;
}

/** Drizzle keeps a session's connection (pool, pooled client or PGlite transaction) in `session.client`. */
export function connectionOf(db: DbOrTx): unknown {
  return (db as unknown as { session: { client: unknown } }).session.client;
}

/**
 * A hot query whose SQL is built once per process and run on any session: the database or a
 * transaction. Drizzle's prepare() binds a query to the session it was made on, and every transaction
 * is a new session, so inside one every query was built anew; for the reads every write starts with
 * (up to 150 columns over 7 tables) the building cost more CPU than the database's work. The prepared
 * query is reused with the caller's connection in place of the first one's (drizzle-orm 0.45 keeps it in
 * `client` on its node-postgres and PGlite prepared queries); placeholders carry the values.
 */
export function reusableQuery<Q extends PreparedQuery>(prepare: (db: DbOrTx) => Q): (db: DbOrTx) => Q {
  let prepared: Q | undefined;
  return (db) => {
    prepared ??= withCompiledRows(prepare(db));
    return Object.create(prepared, { client: { value: connectionOf(db) } }) as Q;
  };
}

/**
 * reusableQuery for a query whose shape varies with a few choices (a sort order, which optional filters
 * are present): each shape is built once, the first time it is asked for, and its values go as placeholders.
 */
export function reusableQueries<V, Q extends PreparedQuery>(shapeOf: (variant: V) => string, prepare: (db: DbOrTx, variant: V) => Q): (db: DbOrTx, variant: V) => Q {
  const byShape = new Map<string, (db: DbOrTx) => Q>();
  return (db, variant) => {
    const shape = shapeOf(variant);
    let query = byShape.get(shape);
    if (!query) byShape.set(shape, (query = reusableQuery((first) => prepare(first, variant))));
    return query(db);
  };
}
