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

/**
 * Why the database could not answer, when that is the trouble (docs/operations.md, "When the database is down"):
 * `not_applied` when nothing reached it or it refused to start the work (no connection, starting up, a timeout);
 * `out_of_space` when its disk is full (nothing of the statement is kept); `maybe_applied` when the connection was
 * lost with the work sent, so a commit may have landed. Undefined for every other error.
 */
export type Unavailability = 'not_applied' | 'out_of_space' | 'maybe_applied';

/** postgres.js's own codes (no other library's): a connection not made in time, or lost while in use. */
const DRIVER_NEVER_CONNECTED = new Set(['CONNECT_TIMEOUT']);
const DRIVER_CONNECTION_LOST = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED']);
/** Node's codes for the same, counted only on an error postgres.js failed a query with. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ERR_SOCKET_CLOSED']);
const CONNECTION_LOST = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
/**
 * PostgreSQL's: the server is starting up or has too many connections; a statement, lock or idle-in-transaction
 * timeout; memory is short. Each rolls the transaction back.
 */
const REFUSED_SQLSTATES = new Set(['57P03', '53300', '57014', '55P03', '25P03', '53200']);
/** PostgreSQL's disk_full: it could not extend a file; the transaction is rolled back. */
const DISK_FULL_SQLSTATE = '53100';
/** Shut down (fast or by a crash) or a connection exception while the work was under way. */
const LOST_SQLSTATES = new Set(['57P01', '57P02']);

export function databaseUnavailability(error: unknown): Unavailability | undefined {
  const database = databaseErrorOf(error);
  if (database) {
    if (database.code === DISK_FULL_SQLSTATE) return 'out_of_space';
    if (REFUSED_SQLSTATES.has(database.code)) return 'not_applied';
    if (LOST_SQLSTATES.has(database.code) || database.code.startsWith('08')) return 'maybe_applied';
    return undefined;
  }
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    // postgres.js marks each error it fails a query with by the query (socket errors included): a provider's or a
    // webhook receiver's ECONNRESET is not the database's.
    const fromDriver = 'query' in current;
    if (typeof code === 'string' && (DRIVER_NEVER_CONNECTED.has(code) || (fromDriver && NEVER_CONNECTED.has(code)))) return 'not_applied';
    if (typeof code === 'string' && (DRIVER_CONNECTION_LOST.has(code) || (fromDriver && CONNECTION_LOST.has(code)))) return 'maybe_applied';
    // PGlite's file system failing under it (a full disk): nothing of the statement was kept.
    if (code === 'ENOSPC' || (current instanceof Error && /\bENOSPC\b|No space left on device/.test(current.message))) return 'out_of_space';
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
