import 'server-only';
import { createHash } from 'node:crypto';

/** API secret keys are stored only as this hash: long random keys need no slow hash (docs/decisions.md §2). */
export function hashSecretKey(secretKey: string): string {
  return createHash('sha256').update(secretKey).digest('hex');
}
