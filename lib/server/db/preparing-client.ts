import 'server-only';
import pg from 'pg';
import { PipeliningClient } from './pipelining-client';

/** Enough for every statement shape the app sends; a connection past it sends the rest unprepared. */
export const MAX_PREPARED_PER_CONNECTION = 1000;

type RowParser = (raw: string) => unknown;
/** What a statement's rows look like, as its first RowDescription said, and the parsers made for it. */
type ResultShape = { fields: pg.FieldDef[]; parsers: RowParser[] };
type QueryInternals = {
  text: string;
  _result: { fields: pg.FieldDef[]; _parsers: RowParser[] | undefined };
  _accumulateRows: boolean;
  callback?: (error: Error | null, result?: unknown) => void;
};
/** node-postgres's own Query methods that ShapeRememberingQuery wraps (pg 8's Query is a JavaScript class its typings do not show). */
const queryBase = pg.Query.prototype as unknown as { prepare: (connection: unknown) => void; handleRowDescription: (message: unknown) => void };

/**
 * Shapes by the type parsers they were made with (a drizzle prepared query keeps one `types` object for
 * its life; queries without one share DEFAULT_TYPES), then by statement text.
 */
const shapesByTypes = new WeakMap<object, Map<string, ResultShape>>();
const DEFAULT_TYPES = {};
const noDescribe = () => undefined;

function shapesFor(types: object | undefined): Map<string, ResultShape> {
  const key = types ?? DEFAULT_TYPES;
  let shapes = shapesByTypes.get(key);
  if (!shapes) shapesByTypes.set(key, (shapes = new Map()));
  return shapes;
}

/**
 * A prepared statement's query that asks the server to describe its rows only the first time this
 * process runs its text. node-postgres describes the portal on every execution, and each answer is
 * parsed into one object per column and turned into a fresh set of parsers: for the reads that load a
 * milestone's graph (about 150 columns over 7 tables) that was a sixth of everything the server
 * allocated per request, and that garbage, promoted under load, is what its major GCs were collecting.
 * A statement's result columns cannot change while it is prepared (PostgreSQL refuses: "cached plan
 * must not change result type"), so the first description stands for every later execution.
 */
class ShapeRememberingQuery extends pg.Query {
  constructor(
    config: pg.QueryConfig,
    private readonly shapes: Map<string, ResultShape>,
  ) {
    super(config);
  }

  private get internals(): QueryInternals {
    return this as unknown as QueryInternals;
  }

  prepare(connection: { describe: unknown }): void {
    const shape = this.shapes.get(this.internals.text);
    if (!shape) return queryBase.prepare.call(this, connection);
    this.internals._result.fields = shape.fields;
    this.internals._result._parsers = shape.parsers;
    this.internals._accumulateRows = true;
    const describe = connection.describe;
    connection.describe = noDescribe;
    try {
      queryBase.prepare.call(this, connection);
    } finally {
      connection.describe = describe;
    }
  }

  handleRowDescription(message: { fields: pg.FieldDef[] }): void {
    queryBase.handleRowDescription.call(this, message);
    const { text, _result: result } = this.internals;
    if (result._parsers && !this.shapes.has(text) && this.shapes.size < MAX_PREPARED_PER_CONNECTION) this.shapes.set(text, { fields: result.fields, parsers: result._parsers });
  }
}

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

  /**
   * A named statement read as plain text rows (drizzle's every prepared query, through the pool's
   * callback or a transaction's promise) goes as a ShapeRememberingQuery, answering as node-postgres would.
   */
  protected override submit(config: unknown, values?: unknown, callback?: unknown): unknown {
    const query = config as (pg.QueryConfig & { rows?: unknown; binary?: unknown; queryMode?: unknown; submit?: unknown; types?: object }) | null;
    const plainRows = query && typeof query === 'object' && !query.submit && query.name && !query.rows && !query.binary && !query.queryMode;
    if (!plainRows || typeof values === 'function' || (callback !== undefined && typeof callback !== 'function')) return super.submit(config, values, callback);
    const shaped = new ShapeRememberingQuery({ ...query, values: Array.isArray(values) ? values : query.values }, shapesFor(query.types));
    const internals = shaped as unknown as QueryInternals;
    let answer: Promise<unknown> | undefined;
    if (callback) internals.callback = callback as QueryInternals['callback'];
    else answer = new Promise((resolve, reject) => (internals.callback = (error, result) => (error ? reject(error) : resolve(result))));
    super.submit(shaped);
    return answer;
  }
}
