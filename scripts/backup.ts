/**
 * `npm run backup -- FILE`: a consistent copy of the embedded database in FILE (docs/operations.md, "Backups").
 * A running server (this machine's, PORT, or --url) is asked for it with the operator key (ESCROW_OPERATOR_KEY, from
 * the environment or .env), so it is taken through the database while the server runs; with no server running the
 * database directory (ESCROW_DATA_DIR) is opened and copied the same way. FILE is never overwritten.
 * On PostgreSQL use pg_dump or base backups instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadEnvConfig } from '@next/env';

const ROOT = path.resolve(__dirname, '..');
loadEnvConfig(ROOT);

function fail(message: string): never {
  console.error(`backup: ${message}`);
  process.exit(1);
}

/** The server's copy, or undefined when no server answers at `base`. */
async function fromServer(base: string, key: string): Promise<Blob | undefined> {
  let response: Response;
  try {
    response = await fetch(`${base}/v1/operator/backup`, { headers: { authorization: key } });
  } catch {
    return undefined;
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    fail(`the server at ${base} answered ${response.status}: ${body.message ?? response.statusText}`);
  }
  return response.blob();
}

async function main() {
  const { values, positionals } = parseArgs({ options: { url: { type: 'string' } }, allowPositionals: true });
  const file = positionals[0];
  if (!file || positionals.length > 1) fail('say where to write it: npm run backup -- FILE [--url http://127.0.0.1:3000]');
  const target = path.resolve(process.cwd(), file);
  if (fs.existsSync(target)) fail(`${target} exists: a backup never overwrites a file; choose a new name.`);
  if (process.env.DATABASE_URL) fail('this server runs on PostgreSQL (DATABASE_URL): back it up with pg_dump, or base backups and WAL archiving (docs/operations.md, "Backups").');
  const { dataDir } = await import('../lib/server/env');
  const { backupOfDirectory } = await import('../lib/server/db/embedded-backup');
  const { DataDirInUseError } = await import('../lib/server/db/data-dir-lock');

  const key = process.env.ESCROW_OPERATOR_KEY;
  const base = (values.url ?? `http://127.0.0.1:${process.env.PORT ?? '3000'}`).replace(/\/+$/, '');
  let backup = key ? await fromServer(base, key) : undefined;
  let source = `the server at ${base}`;
  if (!backup) {
    source = dataDir();
    try {
      backup = await backupOfDirectory(source);
    } catch (error) {
      if (error instanceof DataDirInUseError && !key) fail(`${(error as Error).message} Set ESCROW_OPERATOR_KEY (as the server has it) so the running server can be asked for the copy.`);
      if (error instanceof DataDirInUseError) fail(`${(error as Error).message} No server answered at ${base}: pass --url with the address of the one that holds it.`);
      throw error;
    }
  }
  // Written whole under another name, then moved into place: a backup cut short is never mistaken for one.
  const draft = `${target}.partial-${process.pid}`;
  fs.writeFileSync(draft, new Uint8Array(await backup.arrayBuffer()), { mode: 0o600, flag: 'wx' });
  fs.renameSync(draft, target);
  console.log(`Backed up the embedded database from ${source} to ${target} (${(backup.size / 1024 / 1024).toFixed(1)} MB).`);
  console.log('The encryption key is not in it: keep ESCROW_ENCRYPTION_KEY, or the data directory\'s encryption-key file, apart from it.');
}

main().catch((error) => fail((error as Error).message));
