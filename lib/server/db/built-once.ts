import 'server-only';
import { is, Param, Placeholder, SQL, sql, StringChunk } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

const dialect = new PgDialect();

/**
 * A fixed piece of SQL rendered to its text once, when its module loads. drizzle renders a statement by
 * walking every piece of its tree (each column, table and nested fragment checked by kind) on every call,
 * and for a large fixed fragment on a hot path that walk cost more CPU than the database spent running
 * it. What comes back is the same SQL as one piece of text between its parameters; values that change per
 * call are `sql.placeholder(name)`s in the fragment, filled by the prepared query's `execute({ name })`.
 */
export function builtOnce(fragment: SQL): SQL {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  // [text, 1, text, 2, …, text]: drizzle numbers parameters $1, $2, … in the order it renders them.
  const pieces = text.split(/\$(\d+)/);
  const count = (pieces.length - 1) / 2;
  if (count !== params.length) throw new Error(`builtOnce: ${params.length} parameters but ${count} $n in the text: ${text}`);
  const chunks: ConstructorParameters<typeof SQL>[0] = [];
  for (let i = 0; i < pieces.length; i += 2) {
    chunks.push(new StringChunk(pieces[i]!));
    if (i + 1 === pieces.length) break;
    const position = Number(pieces[i + 1]);
    if (position !== i / 2 + 1) throw new Error(`builtOnce: $${position} where $${i / 2 + 1} was expected: ${text}`);
    const param = params[position - 1];
    // A placeholder stays one; a value fixed at build time stays a parameter (a bare array would be spread into a list).
    chunks.push(is(param, Placeholder) || is(param, Param) ? param : sql.param(param));
  }
  return new SQL(chunks);
}

/**
 * A statement of one value rendered to its text once: the function gives the statement for a value, the
 * text before and after it kept. For a write whose shape recurs (the rows of a table, as one JSON value).
 */
export function builtOnceAroundValue(fragment: SQL): (value: unknown) => SQL {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  const pieces = text.split('$1');
  if (params.length !== 1 || pieces.length !== 2 || !is(params[0], Placeholder)) throw new Error(`builtOnceAroundValue: one placeholder, once, is expected: ${text}`);
  const [before, after] = [new StringChunk(pieces[0]!), new StringChunk(pieces[1]!)];
  return (value) => new SQL([before, sql.param(value), after]);
}
