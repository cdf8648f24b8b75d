/**
 * Webhook signatures (docs/decisions.md §9): `Escrow-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over
 * "<t>.<raw body>" with the endpoint's secret. While a secret is being rotated the header carries one
 * `v1=` per secret, so a receiver holding either one verifies. Pure: time comes in as an argument.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A signature older (or further in the future) than this is refused: a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function computeSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/** The header value for a body signed at `timestamp` by every given secret (current first). */
export function signatureHeader(a: { secrets: string[]; timestamp: number; body: string }): string {
  if (a.secrets.length === 0) throw new Error('at least one secret is needed to sign');
  if (!Number.isSafeInteger(a.timestamp) || a.timestamp < 0) throw new Error('the timestamp must be whole unix seconds');
  return [`t=${a.timestamp}`, ...a.secrets.map((secret) => `v1=${computeSignature(secret, a.timestamp, a.body)}`)].join(',');
}

export type ParsedSignature = { timestamp: number; signatures: string[] };

/** Reads `t=…,v1=…[,v1=…]`; unknown schemes (a future v2=) are skipped, not refused. */
export function parseSignatureHeader(header: string): ParsedSignature | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,15}$/.test(value) || timestamp !== null) return null;
      timestamp = Number(value);
    } else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) {
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === null || signatures.length === 0) return null;
  return { timestamp, signatures };
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: 'malformed' | 'timestamp_out_of_tolerance' | 'no_matching_signature' };

/**
 * Checks a delivery: any `v1=` made with any of the receiver's secrets (several during its own
 * rotation), compared in constant time, and a timestamp within the tolerance of `nowSeconds`.
 */
export function verifySignature(a: {
  header: string | null | undefined;
  body: string;
  secrets: string | string[];
  nowSeconds: number;
  toleranceSeconds?: number;
}): VerifyResult {
  const parsed = a.header ? parseSignatureHeader(a.header) : null;
  if (!parsed) return { ok: false, reason: 'malformed' };
  const tolerance = a.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  if (Math.abs(a.nowSeconds - parsed.timestamp) > tolerance) return { ok: false, reason: 'timestamp_out_of_tolerance' };
  const secrets = typeof a.secrets === 'string' ? [a.secrets] : a.secrets;
  for (const secret of secrets) {
    const expected = Buffer.from(computeSignature(secret, parsed.timestamp, a.body), 'hex');
    for (const candidate of parsed.signatures) {
      const given = Buffer.from(candidate, 'hex');
      if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true, timestamp: parsed.timestamp };
    }
  }
  return { ok: false, reason: 'no_matching_signature' };
}
