import 'server-only';
import { env } from '../env';
import { AppError } from './app-error';

type Bucket = { tokens: number; updatedAt: number };

const buckets = new Map<string, Bucket>();

/**
 * A token bucket per client key, in this process: the burst is spent at once and refills at the
 * per-minute rate. Several app processes each keep their own buckets.
 */
export function takeToken(scope: string, nowMs: number): void {
  const { ESCROW_RATE_LIMIT_PER_MINUTE: perMinute, ESCROW_RATE_LIMIT_BURST: burst } = env();
  const refillPerMs = perMinute / 60_000;
  const bucket = buckets.get(scope) ?? { tokens: burst, updatedAt: nowMs };
  bucket.tokens = Math.min(burst, bucket.tokens + (nowMs - bucket.updatedAt) * refillPerMs);
  bucket.updatedAt = nowMs;
  buckets.set(scope, bucket);
  if (bucket.tokens < 1) {
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000));
    throw new AppError('RATE_LIMITED', `Too many requests: retry in ${retryAfter} s.`, undefined, { 'retry-after': String(retryAfter) });
  }
  bucket.tokens -= 1;
}
