import 'server-only';
import type { Context } from 'hono';
import type { ApiEnv } from './env';
import { ok } from './respond';

/**
 * Answers that carry a secret shown once (a client's secret key, a webhook signing secret): secrets are
 * kept only hashed or encrypted (docs/decisions.md §2), so an Idempotency-Key replay must not show one again.
 * The first caller gets the secret; idempotency_keys keeps, and a replay returns, the same record with
 * the secret null and a message saying where a new one comes from.
 */
export function okShowingSecretOnce<T extends object>(c: Context<ApiEnv>, message: string, data: T, secret: keyof T & string, replayMessage: string) {
  c.set('replayBody', JSON.stringify({ status: true, message: replayMessage, data: { ...data, [secret]: null } }));
  return ok(message, data);
}
