import 'server-only';
import { randomUUID } from 'node:crypto';

let lastMs = 0;
let counter = 0;

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
  if (nowMs <= lastMs) {
    counter++;
    if (counter > 0xfff) {
      lastMs++;
      counter = 0;
    }
  } else {
    lastMs = nowMs;
    counter = 0;
  }
  const time = lastMs.toString(16).padStart(12, '0');
  // randomUUID: xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx, V already the RFC variant (8–b).
  return `${time.slice(0, 8)}-${time.slice(8)}-7${counter.toString(16).padStart(3, '0')}-${randomUUID().slice(19)}`;
}
