import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ProofTokens } from '@/lib/contracts/dashboard-plain';
import { sessionSecret } from './secret';

/** Expiries are rounded up to this step, so loads within it link the same URL and the browser's cached copy serves them. */
const STEP_MS = 5 * 60_000;

type Viewer = { accountId: string };

const mac = (viewer: Viewer, fileId: string, expires: number) =>
  // Keyed apart from the session cookies, which next-auth derives from the same secret.
  createHmac('sha256', `proof-link:${sessionSecret()}`).update(`${viewer.accountId}\0${fileId.toLowerCase()}\0${expires}`).digest('base64url');

/**
 * Tokens for the proof files a page shows this viewer: each lets /proofs serve that file to that viewer for 5 to 10
 * minutes without re-reading the record that holds it, the page having just read it.
 */
export function proofTokens(viewer: Viewer, fileIds: Iterable<string>, now: Date): ProofTokens {
  const expires = Math.ceil(now.getTime() / STEP_MS) * STEP_MS + STEP_MS;
  const seconds = expires / 1000;
  const tokens: ProofTokens = {};
  for (const id of fileIds) tokens[id.toLowerCase()] = `${seconds}.${mac(viewer, id, seconds)}`;
  return tokens;
}

/** How many seconds this token still lets this viewer read this file, or null when it does not. */
export function proofTokenSecondsLeft(viewer: Viewer, fileId: string, token: string, now: Date): number | null {
  const match = /^(\d{1,12})\.([\w-]{43})$/.exec(token);
  if (!match) return null;
  const seconds = Number(match[1]);
  const left = seconds - Math.floor(now.getTime() / 1000);
  if (left <= 0 || left > (2 * STEP_MS) / 1000) return null;
  const given = Buffer.from(match[2]!);
  const expected = Buffer.from(mac(viewer, fileId, seconds));
  return given.length === expected.length && timingSafeEqual(given, expected) ? left : null;
}
