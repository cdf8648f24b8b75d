import 'server-only';
import { RateLimiterDrizzle, RateLimiterMemory } from 'rate-limiter-flexible';
import type { Db } from './client';
import { rateLimits } from './schema';

export type LimiterOptions = {
  /** Names the limiter: its keys in rate_limits start with it. */
  keyPrefix: string;
  points: number;
  /** Seconds from a key's first point until its count starts again. */
  duration: number;
  /** Seconds a key stays refused once it has gone over its points, where that is longer than the rest of its window. */
  blockDuration?: number;
  /**
   * Refuse a key over its points from this process's memory until its window ends, without asking the
   * database again (a flood costs one query a process, not one a request). Not with blockDuration: the
   * library then keeps the block in memory only, and other processes would not see it.
   */
  blockInMemory?: boolean;
};

/**
 * A rate-limiter-flexible limiter whose counts are rows of rate_limits, so every worker process and every
 * server on this database counts together (one atomic upsert a point). Should the database err, a
 * limiter of the same shape in this process's memory decides instead until it answers again.
 */
export function sharedLimiter(db: Db, { blockInMemory, ...options }: LimiterOptions): RateLimiterDrizzle {
  return new RateLimiterDrizzle({
    ...options,
    storeClient: db,
    schema: rateLimits,
    inMemoryBlockOnConsumed: blockInMemory ? options.points : undefined,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}
