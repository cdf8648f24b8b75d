import 'server-only';
import fs from 'node:fs';
import path from 'node:path';

const secured = new Set<string>();

/**
 * The data directory holds the embedded database, its lock and the session secret: nobody but the
 * server's own user may read or change any of it. Made 0700 with everything under it tightened (0700
 * directories, 0600 files) before anything opens it, and the process umask narrowed so the directories
 * and files the server makes itself are born owner-only.
 */
export function ownerOnlyDataDir(dir: string): void {
  if (secured.has(dir)) return;
  process.umask(0o077);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  tightenDataDir(dir);
  secured.add(dir);
}

/**
 * PGlite sets each file's mode itself, past the umask: its initial files come out 0666 and files it
 * writes through stdio (the relation cache's init files) 0644. So the tree is tightened again once PGlite
 * has opened it; a file it writes later stays behind the 0700 directory. Symlinks are left alone: their
 * targets are not ours to change.
 */
export function tightenDataDir(entry: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(entry);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // removed meanwhile (a stale lock file)
    throw error;
  }
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    if ((stat.mode & 0o777) !== 0o700) fs.chmodSync(entry, 0o700);
    for (const child of fs.readdirSync(entry)) tightenDataDir(path.join(entry, child));
  } else if ((stat.mode & 0o777) !== 0o600) {
    fs.chmodSync(entry, 0o600);
  }
}
