import 'server-only';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';

/**
 * The embedded PostgreSQL's memory settings, on top of PGlite's own start parameters. Its WebAssembly memory
 * never shrinks, so what PostgreSQL allocates once is held for the life of the process: the buffer pool is
 * a quarter of PostgreSQL's default (the files stay in the operating system's page cache, one read away), and
 * VACUUM's and CREATE INDEX's working memory a quarter too (bench/README.md, "Where the memory goes").
 */
export const EMBEDDED_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB', '-c', 'maintenance_work_mem=16MB'];

/** Makes the embedded database in a process of its own, and waits for it to end. */
const INITDB = "const { PGlite } = await import('@electric-sql/pglite'); await (await PGlite.create(process.argv[1])).close();";

/**
 * A new data directory gets its database (PGlite's initdb) in a short-lived child process: PGlite runs initdb in
 * a second PostgreSQL instance and copies its files across through memory, and a process keeps much of what
 * that took long after it is freed, where a child's memory goes back to the system as it exits.
 */
export async function initEmbeddedDatabase(pgdata: string): Promise<void> {
  if (fs.existsSync(path.join(pgdata, 'PG_VERSION'))) return;
  await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', INITDB, pgdata], { cwd: process.cwd(), env: process.env });
}
