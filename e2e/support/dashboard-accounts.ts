/**
 * Dashboard accounts no operation makes (the service's own dispute team), written straight into a
 * server's database. The password hash is made here independently of lib/server/dashboard/passwords.ts
 * (server-only), from its description: `scrypt$N$r$p$salt$key`, salt and 64-byte key in base64url, the
 * password NFKC-normalised. The server reads N, r and p from the row, so a sign-in proves the two agree.
 */
import { randomBytes, randomUUID, scryptSync } from 'node:crypto';
import type { Query } from './demo-server';

export function passwordHash(password: string): string {
  const [N, r, p] = [2 ** 15, 8, 1];
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 64, { N, r, p, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** An account of the service's dispute team: no client, so it reaches every client's disputes (docs/decisions.md §14). */
export async function insertServiceDisputeTeam(query: Query, who: { email: string; password: string; name: string }): Promise<void> {
  await query(
    "insert into dashboard_accounts (id, email, name, role, client_id, escrow_user_id, password_hash) values ($1, $2, $3, 'dispute_team', null, null, $4)",
    [randomUUID(), who.email.toLowerCase(), who.name, passwordHash(who.password)],
  );
}
