import 'server-only';
import { databaseErrorOf } from './db/database-error';

/**
 * What an error log line may say about an error (issue #22): its class, for a database error the
 * PostgreSQL code and the names it involves, a message and where it was thrown. Never the query's
 * parameters (drizzle's "Failed query: … params: …" message carries them, a fresh whsec_ secret
 * included), a PostgreSQL `detail` (it quotes the row's values), or anything shaped like a key.
 */
export type LoggedError = {
  error_class: string;
  message: string;
  pg_code?: string;
  table?: string;
  column?: string;
  constraint?: string;
  /** The statement's text: placeholders ($1 …), never their values. */
  statement?: string;
  at?: string[];
};

/** This service's keys and secrets by their shape, wherever a message might carry one. */
const SECRET_SHAPES = /\b(?:sk|pk)_(?:test|live)_[A-Za-z0-9_-]+|\bwhsec_[A-Za-z0-9_-]+|\bop_[A-Za-z0-9_-]{8,}/g;

const redact = (text: string) => text.replace(SECRET_SHAPES, '[secret]');

function frames(stack: unknown): string[] | undefined {
  if (typeof stack !== 'string') return undefined;
  const lines = stack
    .split('\n')
    .filter((line) => line.startsWith('    at '))
    .slice(0, 8)
    .map((line) => redact(line.trim()));
  return lines.length ? lines : undefined;
}

export function loggableError(error: unknown): LoggedError {
  if (!(error instanceof Error)) return { error_class: typeof error, message: redact(String(error)).slice(0, 500) };
  const errorClass = error.constructor?.name || error.name;
  const database = databaseErrorOf(error);
  if (database) {
    const query = (error as { query?: unknown }).query;
    return {
      error_class: errorClass,
      pg_code: database.code,
      // PostgreSQL quotes the offending value in some messages (invalid input syntax for type uuid: "…").
      message: redact(database.message.replace(/"[^"]*"/g, '"…"')).slice(0, 300),
      ...(database.table ? { table: database.table } : {}),
      ...(database.column ? { column: database.column } : {}),
      ...(database.constraint ? { constraint: database.constraint } : {}),
      ...(typeof query === 'string' ? { statement: query.slice(0, 300) } : {}),
      at: frames(error.stack),
    };
  }
  // drizzle's own message holds the parameters; its class and the cause's say enough.
  const message = /^Failed query:/.test(error.message) ? 'database query failed' : error.message;
  return { error_class: errorClass, message: redact(message).slice(0, 500), at: frames(error.stack) };
}
