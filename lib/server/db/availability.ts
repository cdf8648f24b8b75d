import 'server-only';
import { log } from '../logger';
import { databaseUnavailability } from './database-error';

/**
 * Whether this process finds its database answering (docs/operations.md, "When the database is down"). The first
 * failure that means the database cannot answer is logged once, as is the first success after it; in between,
 * requests answer 503 and the background runners wait longer between passes, without a line for each.
 */

const state: { downSince: number | undefined } = { downSince: undefined };

/** True when the error means the database cannot answer (and the outage is noted); false for any other error. */
export function noteDatabaseFailure(error: unknown, now = Date.now()): boolean {
  const unavailability = databaseUnavailability(error);
  if (!unavailability) return false;
  if (state.downSince === undefined) {
    state.downSince = now;
    const msg = unavailability === 'out_of_space' ? 'database disk full: answering writes 503 until space is freed' : 'database unavailable: answering 503 until it is back';
    log.warn({ msg, error });
  }
  return true;
}

/** The database answered: if it had been down, say once that it is back. */
export function noteDatabaseAnswered(now = Date.now()): void {
  if (state.downSince === undefined) return;
  log.info({ msg: 'database available again', unavailable_ms: now - state.downSince });
  state.downSince = undefined;
}

export function isDatabaseDown(): boolean {
  return state.downSince !== undefined;
}

/** A background failure: an error line, unless it is the database being down, which is said once for all. */
export function logBackgroundFailure(fields: { msg: string } & Record<string, unknown>, error: unknown): void {
  if (noteDatabaseFailure(error)) return;
  log.error({ ...fields, error });
}
