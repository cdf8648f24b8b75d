import 'server-only';
import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from './client';

/**
 * The rows of one raw SQL statement, the same on every driver: node-postgres and PGlite answer
 * `{ rows }`, postgres.js an array of rows.
 */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows;
}
