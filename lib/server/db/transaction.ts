import 'server-only';
import type { DbOrTx, Tx } from './client';

/**
 * A database transaction whose last write goes out with its COMMIT: one round trip for both instead of
 * one each. `run` starts that write, hands it to `last` without awaiting it, and returns; the driver
 * sends the COMMIT right behind it on the transaction's connection. PostgreSQL turns the COMMIT of a
 * transaction whose statement failed into a ROLLBACK, so nothing of a failed write is kept, and the
 * write's own error is thrown here once the transaction has ended.
 */
export async function transactionWithLastWrite<T>(db: DbOrTx, run: (tx: Tx, last: (write: Promise<unknown>) => void) => Promise<T>): Promise<T> {
  let write: Promise<unknown> | undefined;
  const last = (started: Promise<unknown>) => {
    if (write) throw new Error('a transaction has one last write');
    write = started;
    // Awaited once the transaction has ended; nothing waits on it before.
    started.catch(() => undefined);
  };
  let result: T;
  try {
    result = await db.transaction((tx) => run(tx, last));
  } catch (error) {
    // A failed last write fails the COMMIT (PGlite) or its savepoint's release: its own error says why.
    await write;
    throw error;
  }
  await write;
  return result;
}
