import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { LeasedPoints } from './leased-points';

/** A shared count in memory that says how often it was asked: the database's rate_limits row in the app. */
function countingLimiter(points: number, duration: number) {
  const limiter = new RateLimiterMemory({ points, duration });
  let asked = 0;
  const consume = limiter.consume.bind(limiter);
  limiter.consume = (key: string | number, n?: number) => {
    asked++;
    return consume(key, n);
  };
  return { limiter, asked: () => asked };
}

describe('LeasedPoints', () => {
  it('asks the shared count once per lease, however many requests arrive at once', async () => {
    const shared = countingLimiter(300, 60);
    const leased = new LeasedPoints(shared.limiter, 300);
    await Promise.all(Array.from({ length: 32 }, () => leased.consume('client')));
    expect(shared.asked()).toBe(3); // leases of 15: 32 requests take 3
    expect((await shared.limiter.get('client'))?.consumedPoints).toBe(45);
  });

  it('refuses once the shared count is spent, never serving more than the limit in a window', async () => {
    const shared = countingLimiter(300, 60);
    const a = new LeasedPoints(shared.limiter, 300);
    const b = new LeasedPoints(shared.limiter, 300);
    let served = 0;
    let refused = 0;
    await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        (i % 2 ? a : b).consume('client').then(
          () => served++,
          (rejection: unknown) => {
            expect(rejection).toBeInstanceOf(RateLimiterRes);
            refused++;
          },
        ),
      ),
    );
    expect(served).toBeLessThanOrEqual(300);
    // Two processes lose at most a lease each to rounding.
    expect(served).toBeGreaterThanOrEqual(300 - 2 * 15);
    expect(served + refused).toBe(400);
  });

  it('counts each request on its own for a small limit', async () => {
    const shared = countingLimiter(5, 60);
    const leased = new LeasedPoints(shared.limiter, 5);
    for (let i = 0; i < 5; i++) await leased.consume('client');
    await expect(leased.consume('client')).rejects.toBeInstanceOf(RateLimiterRes);
    expect(shared.asked()).toBe(6);
  });
});
