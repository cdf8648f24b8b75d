import 'server-only';

/** A PostgreSQL error as this app reads it, whichever driver raised it. */
export type DatabaseError = { code: string; message: string; constraint?: string; table?: string; column?: string };

type RawError = {
  code?: unknown;
  severity?: unknown;
  message?: unknown;
  cause?: unknown;
  // PGlite names them as node-postgres does, postgres.js with a suffix.
  constraint?: string;
  table?: string;
  column?: string;
  constraint_name?: string;
  table_name?: string;
  column_name?: string;
};

/**
 * The PostgreSQL error behind a failed query, or undefined for any other error. drizzle wraps the
 * driver's error (its `cause`), whose message holds the query's parameters: never log that one.
 */
export function databaseErrorOf(error: unknown): DatabaseError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const candidate = current as RawError;
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code) && candidate.severity !== undefined) {
      return {
        code: candidate.code,
        message: String(candidate.message ?? ''),
        constraint: candidate.constraint ?? candidate.constraint_name,
        table: candidate.table ?? candidate.table_name,
        column: candidate.column ?? candidate.column_name,
      };
    }
    current = candidate.cause;
  }
  return undefined;
}
