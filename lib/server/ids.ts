import 'server-only';
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

/**
 * UUID version 7: the first 48 bits are the Unix time in ms and a 12-bit counter follows, so ids
 * made in order sort in order even within one millisecond (RFC 9562 §6.2, method 1). Milestone logs
 * use it to read back in the order they were written.
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
  const bytes = randomBytes(16);
  const ms = BigInt(lastMs);
  for (let i = 0; i < 6; i++) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
