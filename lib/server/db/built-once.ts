import 'server-only';
import { is, Param, Placeholder, SQL, sql, StringChunk } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

const dialect = new PgDialect();

/** A fragment rendered to its text: the pieces of text between its parameters, and the parameters in order. */
function rendered(fragment: SQL): { pieces: StringChunk[]; params: unknown[]; text: string } {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  // [text, 1, text, 2, …, text]: drizzle numbers parameters $1, $2, … in the order it renders them.
  const split = text.split(/\$(\d+)/);
  const count = (split.length - 1) / 2;
  if (count !== params.length) throw new Error(`builtOnce: ${params.length} parameters but ${count} $n in the text: ${text}`);
  for (let i = 1; i < split.length; i += 2) {
    const expected = (i + 1) / 2;
    if (Number(split[i]) !== expected) throw new Error(`builtOnce: $${split[i]} where $${expected} was expected: ${text}`);
  }
  return { pieces: split.filter((_, i) => i % 2 === 0).map((piece) => new StringChunk(piece)), params, text };
}

/** The pieces of text with a chunk between each two. */
function interleaved(pieces: StringChunk[], between: unknown[]): SQL {
  const chunks: ConstructorParameters<typeof SQL>[0] = [pieces[0]!];
  between.forEach((chunk, i) => chunks.push(chunk as ConstructorParameters<typeof SQL>[0][number], pieces[i + 1]!));
  return new SQL(chunks);
}

/**
 * A fixed piece of SQL rendered to its text once, when its module loads. drizzle renders a statement by
 * walking every piece of its tree (each column, table and nested fragment checked by kind) on every call,
 * and for a large fixed fragment on a hot path that walk cost more CPU than the database spent running
 * it. What comes back is the same SQL as one piece of text between its parameters; values that change per
 * call are `sql.placeholder(name)`s in the fragment, filled by the prepared query's `execute({ name })`.
 */
export function builtOnce(fragment: SQL): SQL {
  const { pieces, params } = rendered(fragment);
  // A placeholder stays one; a value fixed at build time stays a parameter (a bare array would be spread into a list).
  return interleaved(
    pieces,
    params.map((param) => (is(param, Placeholder) || is(param, Param) ? param : sql.param(param))),
  );
}

/**
 * A statement whose values are all `sql.placeholder`s, rendered to its text once: the function gives the
 * statement for values in the placeholders' order, the text between them kept. For a write whose shape
 * recurs (a row's update, rows of a table as one JSON value). A value that is a `sql.param` keeps its encoder.
 */
export function builtOnceAround(fragment: SQL): (values: unknown[]) => SQL {
  const { pieces, params, text } = rendered(fragment);
  if (params.length === 0 || !params.every((param) => is(param, Placeholder))) throw new Error(`builtOnceAround: every value must be a placeholder: ${text}`);
  return (values) => {
    if (values.length !== params.length) throw new Error(`builtOnceAround: ${values.length} values for ${params.length} placeholders: ${text}`);
    return interleaved(
      pieces,
      values.map((value) => (is(value, Param) ? value : sql.param(value))),
    );
  };
}
