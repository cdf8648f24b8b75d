import 'server-only';
import { watchClientChanges } from '../client-cache';
import { escrowFor } from '../escrow-client';

/**
 * Each client's test-clock offset, asked once and kept in process memory: every page's countdowns need it, and it
 * changes only when someone moves the clock. A move announces the client's change (lib/server/client-cache.ts), and
 * this process then forgets every offset it holds; CLOCK_MS bounds what a change it never heard of (an API on
 * another server, a lost notification) can leave behind.
 */
const CLOCK_MS = 5 * 60_000;
const CLOCK_LIMIT = 10_000;

type Clocks = { offsets: Map<string, { offsetMs: number; until: number }>; generation: number };
// On globalThis, watched once: pages and route handlers can be bundled apart, and each bundle would watch again.
const holder = globalThis as typeof globalThis & { __escrowClientClocks?: Clocks };
const clocks =
  holder.__escrowClientClocks ??
  (() => {
    const made: Clocks = { offsets: new Map(), generation: 0 };
    watchClientChanges(() => {
      made.generation++;
      made.offsets.clear();
    });
    return made;
  })();
holder.__escrowClientClocks = clocks;

/** How far the client's clock is ahead of real time (0 for a live client, or when the API cannot say just now). */
export async function clientClockOffset(clientId: string, nowMs = Date.now()): Promise<number> {
  const kept = clocks.offsets.get(clientId);
  if (kept && kept.until > nowMs) return kept.offsetMs;
  const generation = clocks.generation;
  const clock = await escrowFor({ clientId })
    .call('GET /test-clock')
    .catch(() => undefined);
  if (!clock?.ok) return 0;
  // An answer read while the clock moved may be the old one: used for this page, never kept.
  if (generation === clocks.generation) {
    if (clocks.offsets.size >= CLOCK_LIMIT) clocks.offsets.clear();
    clocks.offsets.set(clientId, { offsetMs: clock.data.offset_ms, until: nowMs + CLOCK_MS });
  }
  return clock.data.offset_ms;
}
