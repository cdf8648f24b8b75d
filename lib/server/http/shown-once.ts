import 'server-only';
import { ok } from './respond';

/**
 * Answers that carry a secret shown once (a client's secret key, a webhook signing secret): secrets are
 * kept only hashed or encrypted (decisions §2), so an Idempotency-Key replay must not show one again.
 * The first caller gets the secret; idempotency_keys keeps, and a replay returns, the same record with
 * the secret null and a message saying where a new one comes from.
 */
const replays = new WeakMap<Response, string>();

export function okShowingSecretOnce<T extends object>(message: string, data: T, secret: keyof T & string, replayMessage: string): Response {
  const response = ok(message, data);
  replays.set(response, JSON.stringify({ status: true, message: replayMessage, data: { ...data, [secret]: null } }));
  return response;
}

/** The body an Idempotency-Key keeps for replays: the answer itself unless it showed a secret. */
export function replayBodyOf(response: Response, body: string): string {
  return replays.get(response) ?? body;
}
