import 'server-only';
import { randomUUID } from 'node:crypto';

// On globalThis: `npm start` holds two copies of this module (Next's bundles and the production server's API),
// and ids made by both (a request's, a deadline runner's) must still sort in the order they were made.
const clock = ((globalThis as typeof globalThis & { __escrowUuidv7?: { lastMs: number; counter: number } }).__escrowUuidv7 ??= {
  lastMs: 0,
  counter: 0,
});

/**
 * UUID version 7: the first 48 bits are the Unix time in ms and a 12-bit counter follows, so ids
 * made in order sort in order even within one millisecond (RFC 9562 §6.2, method 1). The rest is the
 * random part and variant of a version 4 UUID (crypto.randomUUID keeps a pool of entropy).
 *
 * The id of every row the service writes as it works (transactions, milestones, ledger rows, events,
 * logs, disputes): a B-tree index of them grows at its right edge, so an insert touches the same few
 * recent pages instead of a random page of the whole index, and the pages a request reads are the
 * recent ones. Ids someone could guess at to reach a thing (files) stay random: crypto.randomUUID.
 */
export function uuidv7(nowMs = Date.now()): string {
  if (nowMs <= clock.lastMs) {
    clock.counter++;
    if (clock.counter > 0xfff) {
      clock.lastMs++;
      clock.counter = 0;
    }
  } else {
    clock.lastMs = nowMs;
    clock.counter = 0;
  }
  const time = clock.lastMs.toString(16).padStart(12, '0');
  // randomUUID: xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx, V already the RFC variant (8–b).
  return `${time.slice(0, 8)}-${time.slice(8)}-7${clock.counter.toString(16).padStart(3, '0')}-${randomUUID().slice(19)}`;
}
