import 'server-only';
import { ok } from './respond';

/**
 * What an Idempotency-Key replay shows of a response that carries a secret shown once (decisions §2):
 * the response without it. The stored copy is this one, so the secret is in neither the database nor
 * a replay.
 */
const replayBodies = new WeakMap<Response, string>();

export function okShownOnce(message: string, data: Record<string, unknown>, secretField: string, replayMessage: string): Response {
  const response = ok(message, data);
  const { [secretField]: _shownOnce, ...withoutSecret } = data;
  replayBodies.set(response, JSON.stringify({ status: true, message: replayMessage, data: withoutSecret }));
  return response;
}

export function replayBodyOf(response: Response): string | undefined {
  return replayBodies.get(response);
}
