import 'server-only';
import { createHash } from 'node:crypto';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Db } from '../db/client';
import { sharedLimiter } from '../db/shared-limiter';
import { addressKey } from '../http/client-address';

/**
 * rate-limiter-flexible's login protection, counted in the database so that every worker process and
 * every server on it counts together:
 * - failed sign-ins to one account from one address: after FREE_FAILURES in a row that address waits
 *   before trying that account again, twice as long after each further failure (up to MAX_WAIT_S). A
 *   success clears the count. Another address is not held back: an attacker's wrong passwords never
 *   lock the real user out.
 * - failed sign-ins from one address to any accounts: ADDRESS_FAILURES a day, then none until the day
 *   is over (slow guessing across many accounts).
 */
const FREE_FAILURES = 5;
const FIRST_WAIT_S = 30;
const MAX_WAIT_S = 60 * 60;
const ADDRESS_FAILURES = 100;
const DAY_S = 24 * 60 * 60;

type Limiters = {
  /** Failures in a row per account and address (its points are never reached: the count is what is read). */
  failuresInARow: RateLimiterAbstract;
  /** Per account and address: present while that address must wait. */
  waits: RateLimiterAbstract;
  failuresPerAddress: RateLimiterAbstract;
};

// On globalThis: next-auth's routes and the server actions can be bundled apart; one process keeps one set.
const holder = globalThis as typeof globalThis & { __escrowSignInLimiters?: WeakMap<Db, Limiters> };

function limiters(db: Db): Limiters {
  const byDb = (holder.__escrowSignInLimiters ??= new WeakMap());
  let found = byDb.get(db);
  if (!found) {
    found = {
      failuresInARow: sharedLimiter(db, { keyPrefix: 'sign-in-failures', points: 1_000_000, duration: DAY_S }),
      waits: sharedLimiter(db, { keyPrefix: 'sign-in-wait', points: 0, duration: MAX_WAIT_S }),
      failuresPerAddress: sharedLimiter(db, { keyPrefix: 'sign-in-address', points: ADDRESS_FAILURES, duration: DAY_S }),
    };
    byDb.set(db, found);
  }
  return found;
}

/** Emails are hashed: the table keeps no address book of the accounts an attacker tried. */
function accountAtAddress(email: string, address: string): string {
  return `${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url')}@${addressKey(address)}`;
}

/** Whether this address may try this account's password now (checked before the password is). */
export async function allowSignInAttempt(db: Db, email: string, address: string): Promise<boolean> {
  const { waits, failuresPerAddress } = limiters(db);
  const [wait, perAddress] = await Promise.all([waits.get(accountAtAddress(email, address)), failuresPerAddress.get(addressKey(address))]);
  return !wait && !(perAddress && perAddress.consumedPoints >= ADDRESS_FAILURES);
}

export async function recordFailedSignIn(db: Db, email: string, address: string): Promise<void> {
  const { failuresInARow, waits, failuresPerAddress } = limiters(db);
  const key = accountAtAddress(email, address);
  const [inARow] = await Promise.all([
    failuresInARow.consume(key),
    // Refused once over its points: that is what allowSignInAttempt reads next time, not an error here.
    failuresPerAddress.consume(addressKey(address)).catch((rejection: unknown) => {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
    }),
  ]);
  const beyondFree = inARow.consumedPoints - FREE_FAILURES;
  if (beyondFree >= 0) await waits.block(key, Math.min(MAX_WAIT_S, FIRST_WAIT_S * 2 ** beyondFree));
}

export async function resetSignInAttempts(db: Db, email: string, address: string): Promise<void> {
  const key = accountAtAddress(email, address);
  const { failuresInARow, waits } = limiters(db);
  await Promise.all([failuresInARow.delete(key), waits.delete(key)]);
}
