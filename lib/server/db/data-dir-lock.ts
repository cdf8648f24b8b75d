import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { ownerOnlyDataDir } from './owner-only-dir';

/**
 * PGlite opens one data directory from two processes without complaint and silently loses the second
 * one's writes, so the app holds its own lock file and refuses to start beside another holder.
 */
export class DataDirInUseError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockDataDir(dir: string): () => void {
  ownerOnlyDataDir(dir);
  const lockPath = path.join(dir, 'escrow-desk.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      const release = () => {
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // already gone: nothing to release
        }
      };
      process.once('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
      if (holder === process.pid) return () => {};
      if (Number.isInteger(holder) && isAlive(holder)) {
        throw new DataDirInUseError(
          `The embedded database in ${dir} is already in use by process ${holder}. ` +
            'Stop that process, or set ESCROW_DATA_DIR to another directory (or DATABASE_URL to a PostgreSQL server).',
        );
      }
      // The holder died without cleaning up (kill -9, power loss): the lock is stale.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirInUseError(`Could not lock ${dir}: another process keeps taking the lock.`);
}
