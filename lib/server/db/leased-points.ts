import 'server-only';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * A key's points taken from the shared count a few at a time, so that a busy client costs the database one
 * upsert per lease instead of one per request. The count stays shared: a lease is counted when it is
 * taken, and a process serves it only within the window it was taken in. The price is a little
 * strictness: a process's unused points of a lease are lost when the window ends, and a lease that does
 * not fit in what is left of the window is refused whole, so a client may be refused up to a lease's
 * worth of requests per process before the exact limit. Small limits (under 40 points) lease one at a time.
 */
export class LeasedPoints {
  private readonly lease: number;
  private readonly held = new Map<string, { left: number; until: number }>();
  /** A lease being taken for a key: the requests that arrive meanwhile wait for it instead of taking their own. */
  private readonly taking = new Map<string, Promise<void>>();

  constructor(
    private readonly shared: RateLimiterAbstract,
    points: number,
  ) {
    this.lease = Math.max(1, Math.floor(points / 20));
  }

  async consume(key: string): Promise<void> {
    if (this.lease === 1) {
      await this.shared.consume(key);
      return;
    }
    for (;;) {
      const held = this.held.get(key);
      if (held && held.left > 0 && held.until > Date.now()) {
        held.left -= 1;
        return;
      }
      let taking = this.taking.get(key);
      if (!taking) {
        taking = this.take(key).finally(() => this.taking.delete(key));
        this.taking.set(key, taking);
      }
      // A refusal reaches every request that waited for this lease.
      await taking;
    }
  }

  private async take(key: string): Promise<void> {
    const now = Date.now();
    const taken = await this.shared.consume(key, this.lease);
    if (this.held.size > 10_000) for (const [k, v] of this.held) if (v.until <= now) this.held.delete(k);
    this.held.set(key, { left: this.lease, until: now + taken.msBeforeNext });
  }
}
