import 'server-only';
import type { DbOrTx } from './client';

/**
 * The statement name to prepare reusable queries under: none, so that the connection decides whether
 * the server prepares it (PreparingClient, unless ESCROW_DB_PREPARED_STATEMENTS=0 for a pooler).
 */
export const UNNAMED = '';

type PreparedQuery = { execute: (placeholders?: Record<string, unknown>) => Promise<unknown> };

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
    prepared ??= prepare(db);
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
