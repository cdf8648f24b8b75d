import 'server-only';
import fs from 'node:fs';
import path from 'node:path';

const secured = new Set<string>();

/**
 * The data directory holds the embedded database, its lock and the session secret: nobody but the
 * server's own user may read or change any of it. PGlite creates its files 0666 and directories 0777,
 * leaving the rest to the umask, so the process umask is narrowed before anything is created (every
 * file the server makes later is owner-only too), and what an earlier start left looser is tightened.
 * Symlinks are left alone: their targets are not ours to change.
 */
export function ownerOnlyDataDir(dir: string): void {
  if (secured.has(dir)) return;
  process.umask(0o077);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir);
  secured.add(dir);
}

function tighten(entry: string): void {
  const stat = fs.lstatSync(entry);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    if ((stat.mode & 0o777) !== 0o700) fs.chmodSync(entry, 0o700);
    for (const child of fs.readdirSync(entry)) tighten(path.join(entry, child));
  } else if ((stat.mode & 0o777) !== 0o600) {
    fs.chmodSync(entry, 0o600);
  }
}
