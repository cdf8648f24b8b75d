import 'server-only';
import type pg from 'pg';
import { PipeliningClient } from './pipelining-client';

/** Enough for every statement shape the app sends; a connection past it sends the rest unprepared. */
export const MAX_PREPARED_PER_CONNECTION = 1000;

/**
 * A node-postgres client that prepares each distinct parameterised statement once per connection and
 * then only binds and executes it, as pgx and the JDBC driver do: the server skips parsing and planning
 * a statement it has seen, which was a large part of its work per request here. Texts without
 * parameters may hold several commands, which a prepared statement cannot, so they go as they are.
 * Turn it off (ESCROW_DB_PREPARED_STATEMENTS=0) behind a pooler in transaction mode.
 */
export class PreparingClient extends PipeliningClient {
  private names = new Map<string, string>();

  // node-postgres's query() has many overloads; this passes every call through, naming the statement.
  override query(config: unknown, values?: unknown, callback?: unknown): never {
    const params = Array.isArray(values) ? values : (config as { values?: unknown[] } | null)?.values;
    if (config !== null && typeof config === 'object' && params && params.length > 0) {
      const query = config as pg.QueryConfig;
      if (typeof query.text === 'string' && !query.name) {
        let name = this.names.get(query.text);
        if (!name && this.names.size < MAX_PREPARED_PER_CONNECTION) {
          name = `escrow_${this.names.size}`;
          this.names.set(query.text, name);
        }
        if (name) config = { ...query, name };
      }
    }
    return (super.query as (...args: unknown[]) => never)(config, values, callback);
  }
}
