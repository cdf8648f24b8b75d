/**
 * An embedded database already made and migrated, copied into each fresh test server's data directory: PGlite's
 * initdb and the migrations are most of a fresh server's start. Only `pgdata` is in it; each server still makes its
 * own keys and secrets on first start. scripts/test.ts makes one per run and names it in ESCROW_TEST_DATA_TEMPLATE.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import drizzleConfig from '../../drizzle.config';

export const DATA_TEMPLATE_ENV = 'ESCROW_TEST_DATA_TEMPLATE';

export async function makeDataTemplate(dir: string): Promise<void> {
  const client = new PGlite(path.join(dir, 'pgdata'));
  try {
    await migrate(drizzle(client), { migrationsFolder: path.resolve(__dirname, '../..', drizzleConfig.out!) });
  } finally {
    await client.close();
  }
}

/** A new data directory under the system's temporary one: a copy of the run's template when there is one, else empty. */
export function freshDataDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const template = process.env[DATA_TEMPLATE_ENV];
  if (template && fs.existsSync(path.join(template, 'pgdata'))) fs.cpSync(path.join(template, 'pgdata'), path.join(dir, 'pgdata'), { recursive: true });
  return dir;
}
