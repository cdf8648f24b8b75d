import 'server-only';
import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from './client';

/**
 * The rows of one raw SQL statement, the same on both drivers: PGlite answers `{ rows }`, postgres.js an
 * array of rows. Values come as the driver gives them (timestamps as text on both, bigints as text on
 * postgres.js); a statement sent this way is not prepared.
 */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows;
}
