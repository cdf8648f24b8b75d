import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { getDb } from './db/client';
import { queryRows } from './db/rows';

/**
 * What a load balancer asks (docs/operations.md, "Health checks"): /healthz, is the process alive;
 * /readyz, should it be sent requests: the database answers, every migration this build knows is applied,
 * and the server is not shutting down. Neither says anything about the data.
 */

export type Readiness = { ready: true } | { ready: false; reason: string };

const holder = globalThis as typeof globalThis & { __escrowShuttingDown?: boolean };

/** From the first moment of a shutdown, /readyz answers 503: the load balancer stops sending new requests. */
export function markShuttingDown(): void {
  holder.__escrowShuttingDown = true;
}

export function isShuttingDown(): boolean {
  return holder.__escrowShuttingDown === true;
}

/** A probe waits this long for the database at most: a balancer's own timeout is usually a few seconds. */
const PROBE_TIMEOUT_MS = 2_000;
/** Probes within this long of the last share its answer, so a balancer probing often costs one query. */
const PROBE_REUSE_MS = 1_000;

let knownMigrations: number | undefined;

/** The migrations this build ships (drizzle's journal). */
function migrationsInBuild(): number {
  knownMigrations ??= (
    JSON.parse(fs.readFileSync(path.join(/*turbopackIgnore: true*/ process.cwd(), 'lib/server/db/migrations/meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    }
  ).entries.length;
  return knownMigrations;
}

async function probe(): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Readiness>((resolve) => {
    timer = setTimeout(() => resolve({ ready: false, reason: 'the database did not answer in time' }), PROBE_TIMEOUT_MS);
  });
  const asked = (async (): Promise<Readiness> => {
    const [row] = await queryRows<{ applied: number }>(await getDb(), sql`select count(*)::int as applied from drizzle.__drizzle_migrations`);
    return (row?.applied ?? 0) >= migrationsInBuild() ? { ready: true } : { ready: false, reason: 'migrations are not all applied' };
  })().catch((): Readiness => ({ ready: false, reason: 'the database is unreachable' }));
  try {
    return await Promise.race([asked, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

let last: { at: number; answer: Promise<Readiness> } | undefined;

export function readiness(now = Date.now()): Promise<Readiness> {
  if (isShuttingDown()) return Promise.resolve({ ready: false, reason: 'shutting down' });
  if (!last || now - last.at >= PROBE_REUSE_MS) last = { at: now, answer: probe() };
  return last.answer;
}
