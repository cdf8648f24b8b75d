import 'server-only';

/** Per-email failed attempts in this process: slows a password guesser without locking anyone out for long. */
const WINDOW_MS = 15 * 60_000;
const MAX_FAILURES = 10;
const failures = new Map<string, { count: number; since: number }>();

const key = (email: string) => email.trim().toLowerCase();

export function allowSignInAttempt(email: string, now = Date.now()): boolean {
  const entry = failures.get(key(email));
  if (!entry || now - entry.since > WINDOW_MS) return true;
  return entry.count < MAX_FAILURES;
}

export function recordFailedSignIn(email: string, now = Date.now()): void {
  const entry = failures.get(key(email));
  if (!entry || now - entry.since > WINDOW_MS) failures.set(key(email), { count: 1, since: now });
  else entry.count += 1;
  if (failures.size > 10_000) failures.clear();
}

export function resetSignInAttempts(email: string): void {
  failures.delete(key(email));
}
