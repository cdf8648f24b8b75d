import 'server-only';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Db } from '@/lib/server/db/client';
import { LeasedPoints } from '@/lib/server/db/leased-points';
import { sharedLimiter } from '@/lib/server/db/shared-limiter';
import { env } from '@/lib/server/env';
import { AppError } from '@/lib/server/app-error';
import { addressKey } from '@/lib/server/http/client-address';

type ApiLimiters = {
  /** Requests per client key (or the operator's), counted after the key is known. */
  requests: LeasedPoints;
  /** Failed authentications per client address. */
  failures: RateLimiterAbstract;
  /** Addresses this process has refused for their failures, until their window ends: checked before the key lookup. */
  refusedAddresses: RateLimiterMemory;
};

// On globalThis: `npm start` holds two copies of this module (Next's bundle and the production server's), and one
// process keeps one set of limiters (each with its own timer).
const holder = globalThis as typeof globalThis & { __escrowApiLimiters?: WeakMap<Db, ApiLimiters> };

/**
 * ESCROW_RATE_LIMIT_BURST requests in each window of BURST / PER_MINUTE minutes, a window starting at a
 * key's first request (rate-limiter-flexible's fixed window): the per-minute rate on average and at most
 * BURST at once, or twice BURST across the moment one window ends and the next begins. The token bucket
 * this replaces allowed BURST at once and refilled continuously; the library keeps counts, not buckets.
 */
function limiters(db: Db): ApiLimiters {
  const byDb = (holder.__escrowApiLimiters ??= new WeakMap());
  let found = byDb.get(db);
  if (!found) {
    const { ESCROW_RATE_LIMIT_PER_MINUTE: perMinute, ESCROW_RATE_LIMIT_BURST: burst, ESCROW_AUTH_FAILURES_PER_MINUTE: failures } = env();
    found = {
      requests: new LeasedPoints(sharedLimiter(db, { keyPrefix: 'api', points: burst, duration: (burst * 60) / perMinute, blockInMemory: true }), burst),
      failures: sharedLimiter(db, { keyPrefix: 'api-auth-failures', points: failures, duration: 60, blockInMemory: true }),
      refusedAddresses: new RateLimiterMemory({ keyPrefix: 'api-auth-failures-refused', points: 0, duration: 60 }),
    };
    byDb.set(db, found);
  }
  return found;
}

function rateLimited(rejection: unknown, message: string): unknown {
  if (!(rejection instanceof RateLimiterRes)) return rejection; // the database and the fallback both failed: a 500
  const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
  return new AppError('RATE_LIMITED', `${message}: retry in ${retryAfter} s.`, undefined, { 'retry-after': String(retryAfter) });
}

/** One request of a client (or the operator), counted with every process and server on this database. */
export async function takeToken(db: Db, scope: string): Promise<void> {
  try {
    await limiters(db).requests.consume(scope);
  } catch (rejection) {
    throw rateLimited(rejection, 'Too many requests');
  }
}

const FAILURES_MESSAGE = 'Too many requests with a missing or unknown key from your address';

/**
 * Before the key is looked up: an address this process has already refused for its failed
 * authentications is refused again until its window ends, whatever key it sends now. (Another process
 * refuses it at its next failure, when the shared count says it is over.)
 */
export async function refuseAddressOverFailures(db: Db, address: string): Promise<void> {
  const refused = await limiters(db).refusedAddresses.get(addressKey(address));
  if (refused && refused.msBeforeNext > 0) throw rateLimited(refused, FAILURES_MESSAGE);
}

/** After a key was missing or unknown: counted against the client's address; over the limit, the answer is 429, not 401. */
export async function countFailedAuthentication(db: Db, address: string): Promise<void> {
  const key = addressKey(address);
  const { failures, refusedAddresses } = limiters(db);
  try {
    await failures.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) await refusedAddresses.block(key, Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
    throw rateLimited(rejection, FAILURES_MESSAGE);
  }
}
