import 'server-only';
import { AppError } from '../app-error';
import { database } from '../db/client';

/** The running server's copy of its embedded database (db/embedded-backup.ts); on PostgreSQL, PostgreSQL's own tools. */
export async function embeddedBackup(): Promise<Blob> {
  const { backup } = await database();
  if (!backup) {
    throw new AppError(
      'INVALID_STATE',
      'This server runs on PostgreSQL: back it up with pg_dump, or base backups and WAL archiving (docs/operations.md, "Backups").',
    );
  }
  return backup();
}
