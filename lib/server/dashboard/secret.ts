import 'server-only';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ownerOnlyDataDir } from '../db/owner-only-dir';
import { dataDir } from '../env';
import { dashboardEnv } from './config';

let cached: string | undefined;

/**
 * NEXTAUTH_SECRET when set; otherwise a random secret made on first start and kept beside the embedded
 * database, so a newcomer signs in with no configuration and sessions survive a restart.
 */
export function sessionSecret(): string {
  if (cached) return cached;
  const fromEnv = dashboardEnv().NEXTAUTH_SECRET;
  if (fromEnv) return (cached = fromEnv);
  const dir = dataDir();
  const file = path.join(dir, 'nextauth-secret');
  ownerOnlyDataDir(dir);
  try {
    // 'wx' so two processes starting together agree on one secret: the loser reads the winner's.
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} holds no usable secret: delete it to make a new one, or set NEXTAUTH_SECRET.`);
  return (cached = secret);
}
