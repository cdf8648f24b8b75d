/**
 * The dashboard contracts' plain values and helpers, without zod: client components import them from here,
 * so a form or a proof link does not pull the schema library into the browser (lint refuses the other
 * contract modules' values in components). dashboard.ts, dashboard-disputes.ts, keys.ts and emails.ts build
 * their schemas on these and re-export them.
 */

export const MIN_PASSWORD_LENGTH = 10;

/** How long a rolled key's predecessors may keep working, in hours (POST /v1/keys/roll's expires_in_hours). */
export const MAX_KEY_OVERLAP_HOURS = 72;

export const EMAIL_STATUSES = ['pending', 'sending', 'sent', 'failed', 'unknown', 'kept'] as const;
/** What an admin may send again: what did not go out, or may not have. */
export const RESENDABLE_EMAIL_STATUSES = ['failed', 'unknown', 'kept'] as const satisfies ReadonlyArray<(typeof EMAIL_STATUSES)[number]>;

/** The sign-in error next-auth reports when this address must wait before trying this account again. */
export const SIGN_IN_THROTTLED = 'SignInThrottled';
/** The sign-in error for a customer the marketplace deactivated, given only after the right password. */
export const SIGN_IN_DEACTIVATED = 'AccountDeactivated';

/** The admin's test-clock control counts in minutes (a sandbox payout's minute), hours or days; the API takes seconds. */
export const ADVANCE_UNITS = ['minutes', 'hours', 'days'] as const;
const UNIT_SECONDS: Record<(typeof ADVANCE_UNITS)[number], number> = { minutes: 60, hours: 3600, days: 86_400 };
export const advanceSeconds = (v: { amount: number; unit: (typeof ADVANCE_UNITS)[number] }) => v.amount * UNIT_SECONDS[v.unit];

const FILE_PATH = /\/v1\/files\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;

/** A page's signed links to the proof files it shows its viewer: file id → token for /proofs/{id}?t= (lib/server/dashboard/proof-links.ts). */
export type ProofTokens = Record<string, string>;

/** The stored file ids among proof URLs (outside URLs have none). */
export const proofFileIds = (urls: Iterable<string>): string[] => [...urls].map(fileIdOfProof).filter((id): id is string => id !== null);

/** The stored file a proof URL points at (whatever origin the API was reached by), or null for outside URLs. */
export function fileIdOfProof(url: string): string | null {
  try {
    return FILE_PATH.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? null;
  } catch {
    return null;
  }
}
