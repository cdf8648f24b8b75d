/**
 * `npm run restore -- FILE`: a backup made by `npm run backup` becomes the embedded database in ESCROW_DATA_DIR,
 * which must be empty or missing: nothing is overwritten (docs/operations.md, "Backups").
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadEnvConfig } from '@next/env';

const ROOT = path.resolve(__dirname, '..');
loadEnvConfig(ROOT);

function fail(message: string): never {
  console.error(`restore: ${message}`);
  process.exit(1);
}

async function main() {
  const positionals = process.argv.slice(2);
  const file = positionals[0];
  if (!file || positionals.length > 1) fail('say which backup: npm run restore -- FILE (into an empty ESCROW_DATA_DIR)');
  const source = path.resolve(process.cwd(), file);
  if (!fs.existsSync(source)) fail(`${source} does not exist.`);
  if (process.env.DATABASE_URL) fail('DATABASE_URL is set: this restores the embedded database only; restore PostgreSQL with pg_restore or from a base backup (docs/operations.md, "Backups").');
  const { dataDir } = await import('../lib/server/env');
  const { isEmptyDirectory, restoreIntoDirectory } = await import('../lib/server/db/embedded-backup');
  const target = dataDir();
  if (!isEmptyDirectory(target)) fail(`${target} (ESCROW_DATA_DIR) is not empty: restore into an empty directory, or move this one aside first.`);
  const { migrations } = await restoreIntoDirectory(target, new Blob([new Uint8Array(fs.readFileSync(source))]));
  console.log(`Restored ${source} into ${target} (${migrations} migrations applied; a newer server applies its own when it starts).`);
  console.log(`Before starting the server: put the encryption key it ran with in ${path.join(target, 'encryption-key')}, or set ESCROW_ENCRYPTION_KEY.`);
}

main().catch((error) => fail((error as Error).message));
