import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from './data-dir-lock';
import { ownerOnlyDataDir, tightenDataDir } from './owner-only-dir';

/**
 * Backups of the embedded database (docs/operations.md, "Backups"): PGlite's own copy of its data directory, a
 * gzipped tar, taken between statements, so the copy is what a crash at that moment would leave and opens as the
 * database did then. The encryption key and the session secret beside it are not in it, on purpose: a backup
 * that carried its own key would make the secrets in it readable to whoever holds the file.
 */

export const DATABASE_DIR = 'pgdata';

/** A copy of the database in `dir` while no server has it open (a running server answers GET /v1/operator/backup). */
export async function backupOfDirectory(dir: string): Promise<Blob> {
  if (!fs.existsSync(path.join(dir, DATABASE_DIR, 'PG_VERSION'))) throw new Error(`${dir} holds no embedded database.`);
  const release = lockDataDir(dir);
  try {
    const db = new PGlite(path.join(dir, DATABASE_DIR));
    try {
      await db.waitReady;
      return await db.dumpDataDir('gzip');
    } finally {
      await db.close();
    }
  } finally {
    release();
  }
}

/** Whether `dir` is missing or empty: the only place a restore writes. */
export function isEmptyDirectory(dir: string): boolean {
  return !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;
}

/**
 * Opens a backup as the database of `dir`, which must be empty (nothing is ever overwritten), and reports how
 * many migrations it has; the server applies any newer ones when it starts.
 */
export async function restoreIntoDirectory(dir: string, backup: Blob): Promise<{ migrations: number }> {
  if (!isEmptyDirectory(dir)) throw new Error(`${dir} is not empty: restore into an empty directory (move this one aside first).`);
  ownerOnlyDataDir(dir);
  const release = lockDataDir(dir);
  try {
    const db = new PGlite(path.join(dir, DATABASE_DIR), { loadDataDir: backup });
    try {
      await db.waitReady;
      const { rows } = await db.query<{ applied: number }>('select count(*)::int as applied from drizzle.__drizzle_migrations');
      return { migrations: rows[0]?.applied ?? 0 };
    } finally {
      await db.close();
    }
  } finally {
    release();
    tightenDataDir(dir);
  }
}
