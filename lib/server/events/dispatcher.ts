import 'server-only';
import http from 'node:http';
import https from 'node:https';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { webhookPayload } from '@/lib/contracts/webhook-records';
import { nextRetry } from '@/lib/escrow/retry-schedule';
import { signatureHeader } from '@/lib/escrow/webhook-signature';
import type { Db } from '../db/client';
import { clients, events, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { PURPOSE, secretBox } from '../crypto/secret-box';
import { env } from '../env';
import { loggableError } from '../log-error';
import { deliveryAgent, isPolicyRefusal, REFUSED_RESOLVED_ADDRESS, refusedBeforeConnecting, webhookTargetPolicy } from './webhook-target';
import { queryRows } from '../db/rows';

/**
 * The webhook dispatcher (decisions §9): sends the outbox's pending deliveries, signed, and retries
 * failures with backoff. Several app processes may share one PostgreSQL; each claims deliveries in a
 * short transaction with `for update skip locked` and moves `next_attempt_at` ahead as a lease, so a
 * delivery is never sent by two processes at once. A process that dies mid-send leaves a lease that
 * simply runs out: delivery is at least once, and receivers deduplicate by event id.
 */

/** How long a claimed delivery is left to its sender: longer than the send timeout, with room to record the result. */
export const DELIVERY_LEASE_MS = 60_000;
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Sends in flight per process; a slow receiver holds one slot, not the whole queue. */
const MAX_IN_FLIGHT = 32;
const USER_AGENT = 'EscrowDesk-Webhooks/1.0';

type Claimed = {
  id: string;
  /** This attempt's number, counted at the claim: an attempt whose result is lost still counts. */
  attempts: number;
  claimedAt: Date;
  endpointId: string;
  /** The endpoint's client's mode: a live client's deliveries go over https only. */
  clientMode: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  event: { id: string; type: string; createdAt: Date; sequence: number | null; transactionId: string | null; data: unknown };
};

/** True while a sender holds the delivery: the claim sets next_attempt_at exactly one lease after last_attempt_at. */
export function isLeased(d: { status: string; lastAttemptAt: Date | null; nextAttemptAt: Date | null }, now: Date): boolean {
  return (
    d.status === 'pending' &&
    d.lastAttemptAt !== null &&
    d.nextAttemptAt !== null &&
    d.nextAttemptAt.getTime() - d.lastAttemptAt.getTime() === DELIVERY_LEASE_MS &&
    d.nextAttemptAt.getTime() > now.getTime()
  );
}

/**
 * Claims up to `limit` due deliveries. A delivery is due when its time has come, or when it was never
 * tried (a sandbox client's test clock may date events ahead of the wall clock). Per endpoint, a
 * transaction's events go out in sequence order: one waits while an earlier one of the same
 * transaction is still pending (being sent or waiting for a retry) for that endpoint.
 */
export async function claimDueDeliveries(db: Db, now: Date, limit: number): Promise<Claimed[]> {
  if (limit <= 0) return [];
  return db.transaction(async (tx) => {
    const at = now.toISOString();
    const due = await queryRows<{ id: string }>(tx, sql`
      select d.id
      from webhook_deliveries d
      join webhook_endpoints w on w.id = d.endpoint_id
      join events e on e.id = d.event_id
      where d.status = 'pending'
        and w.enabled
        and (d.attempts = 0 or d.next_attempt_at is null or d.next_attempt_at <= ${at}::timestamptz)
        and not exists (
          select 1
          from webhook_deliveries p
          join events pe on pe.id = p.event_id
          where p.endpoint_id = d.endpoint_id
            and p.status = 'pending'
            and e.transaction_id is not null
            and pe.transaction_id = e.transaction_id
            and pe.sequence < e.sequence
        )
      order by d.next_attempt_at nulls first, e.created_at, e.sequence nulls first, d.id
      limit ${limit}
      for update of d skip locked`);
    const ids = due.map((r) => r.id);
    if (ids.length === 0) return [];
    await tx
      .update(webhookDeliveries)
      .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, lastAttemptAt: now, nextAttemptAt: new Date(now.getTime() + DELIVERY_LEASE_MS) })
      .where(inArray(webhookDeliveries.id, ids));
    const rows = await tx
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: events, clientMode: clients.mode })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .innerJoin(clients, eq(clients.id, webhookDeliveries.clientId))
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(inArray(webhookDeliveries.id, ids));
    return rows.map(({ delivery, endpoint, event, clientMode }) => ({
      id: delivery.id,
      attempts: delivery.attempts,
      claimedAt: now,
      endpointId: endpoint.id,
      clientMode,
      url: endpoint.url,
      secret: secretBox().open(endpoint.secret, PURPOSE.webhookSecret),
      previousSecret: endpoint.previousSecret === null ? null : secretBox().open(endpoint.previousSecret, PURPOSE.webhookSecret),
      previousSecretExpiresAt: endpoint.previousSecretExpiresAt,
      event: { id: event.id, type: event.type, createdAt: event.createdAt, sequence: event.sequence, transactionId: event.transactionId, data: event.data },
    }));
  });
}

/** The body a receiver gets (the dashboard's payload viewer shows the same shape, lib/contracts). */
export function deliveryBody(event: Claimed['event']): string {
  return JSON.stringify(
    webhookPayload({
      id: event.id,
      type: event.type,
      created_at: event.createdAt.toISOString(),
      sequence: event.sequence,
      transaction_id: event.transactionId,
      data: event.data,
    }),
  );
}

/** During a rotation the previous secret signs too, until it expires. */
export function signingSecrets(c: Pick<Claimed, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>, now: Date): string[] {
  const previousLive = c.previousSecret && c.previousSecretExpiresAt && c.previousSecretExpiresAt.getTime() > now.getTime();
  return previousLive ? [c.secret, c.previousSecret!] : [c.secret];
}

function describeFailure(error: unknown, timedOut: boolean): string {
  if (timedOut) return `no response within ${DELIVERY_TIMEOUT_MS / 1000} s`;
  // Refused before any connection was tried: nothing here says whether something listens there.
  if (isPolicyRefusal(error)) return REFUSED_RESOLVED_ADDRESS;
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'AbortError') return 'aborted: the server was shutting down';
  const cause = err?.code ? err : err?.cause;
  const text = cause?.code ? `${cause.code}${cause.message && !cause.message.includes(cause.code) ? `: ${cause.message}` : cause.message ? ` (${cause.message})` : ''}` : (cause?.message ?? err?.message ?? String(error));
  return `could not reach the endpoint: ${text}`.slice(0, 500);
}

type Outcome = { ok: boolean; statusCode: number | null; error: string | null };

/**
 * One POST with Node's http(s) and request-filtering-agent, which checks the address each connection
 * resolves to (fetch takes no agent). Only the status counts: the answer's body is not read.
 */
function post(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: deliveryAgent(url), signal },
      (response) => {
        resolve(response.statusCode ?? 0);
        response.destroy();
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function send(c: Claimed, stop: AbortSignal): Promise<Outcome> {
  const refused = refusedBeforeConnecting(c.url, webhookTargetPolicy({ mode: c.clientMode }));
  if (refused) return { ok: false, statusCode: null, error: refused };
  const body = deliveryBody(c.event);
  const now = new Date();
  const signature = signatureHeader({ secrets: signingSecrets(c, now), timestamp: Math.floor(now.getTime() / 1000), body });
  const timeout = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
  try {
    const status = await post(
      new URL(c.url),
      {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'escrow-signature': signature,
        'escrow-event-id': c.event.id,
        'escrow-event-type': c.event.type,
        'escrow-delivery-id': c.id,
      },
      body,
      // A redirect is not an answer (http.request never follows one): the receiver's URL is the one registered.
      AbortSignal.any([timeout, stop]),
    );
    if (status >= 200 && status < 300) return { ok: true, statusCode: status, error: null };
    return { ok: false, statusCode: status, error: `the endpoint answered HTTP ${status}` };
  } catch (error) {
    return { ok: false, statusCode: null, error: describeFailure(error, timeout.aborted) };
  }
}

/** Writes an attempt's result, unless the lease ran out and another sender has claimed the delivery since. */
async function record(db: Db, c: Claimed, outcome: Outcome, opts: { retryBaseMs: number; retryWindowMs: number }): Promise<'succeeded' | 'pending' | 'failed'> {
  const finished = new Date();
  const thisAttempt = and(eq(webhookDeliveries.id, c.id), eq(webhookDeliveries.attempts, c.attempts));
  // A failure must not bring back a delivery that was settled meanwhile (its endpoint deleted); a success is the truth either way.
  const mine = and(thisAttempt, eq(webhookDeliveries.status, 'pending'));
  if (outcome.ok) {
    await db
      .update(webhookDeliveries)
      .set({ status: 'succeeded', deliveredAt: finished, nextAttemptAt: null, lastStatusCode: outcome.statusCode, lastError: null })
      .where(thisAttempt);
    return 'succeeded';
  }
  const decision = nextRetry({
    failures: c.attempts,
    eventCreatedAt: c.event.createdAt,
    now: finished,
    random: Math.random(),
    baseMs: opts.retryBaseMs,
    windowMs: opts.retryWindowMs,
  });
  if (decision.retry) {
    let at = decision.at.getTime();
    // A retry exactly one lease after the attempt would read as "being sent" (isLeased).
    if (at - c.claimedAt.getTime() === DELIVERY_LEASE_MS) at += 1;
    await db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(at), lastStatusCode: outcome.statusCode, lastError: outcome.error })
      .where(mine);
    return 'pending';
  }
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', nextAttemptAt: null, lastStatusCode: outcome.statusCode, lastError: `${outcome.error}; ${decision.reason}`.slice(0, 1000) })
    .where(mine);
  return 'failed';
}

export type Dispatcher = { stop: () => Promise<void> };

/**
 * Polls for due deliveries every ESCROW_WEBHOOK_POLL_MS and right after each send (the next event of a
 * transaction may be waiting on it). Timers are unref'd: the dispatcher never keeps a process alive.
 */
export function createDispatcher(db: Db, opts: { pollMs: number; retryBaseMs: number; retryWindowMs: number }): Dispatcher {
  let stopped = false;
  let running = false;
  let rerun = false;
  let timer: NodeJS.Timeout | undefined;
  let lastErrorLog = 0;
  const inFlight = new Set<Promise<void>>();
  const abort = new AbortController();

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), ms);
    timer.unref();
  };

  const deliver = async (c: Claimed) => {
    const started = performance.now();
    const outcome = await send(c, abort.signal);
    const status = await record(db, c, outcome, opts);
    console.log(
      JSON.stringify({
        level: status === 'failed' ? 'warn' : 'info',
        msg: 'webhook delivery',
        delivery_id: c.id,
        webhook_id: c.endpointId,
        event_id: c.event.id,
        event_type: c.event.type,
        attempt: c.attempts,
        status,
        status_code: outcome.statusCode,
        duration_ms: Math.round(performance.now() - started),
      }),
    );
  };

  const tick = async () => {
    if (stopped) return;
    if (running) {
      rerun = true;
      return;
    }
    running = true;
    let full = false;
    try {
      const room = MAX_IN_FLIGHT - inFlight.size;
      const batch = await claimDueDeliveries(db, new Date(), room);
      full = room > 0 && batch.length === room;
      for (const c of batch) {
        const job: Promise<void> = deliver(c)
          .catch((error) => logError('webhook delivery could not be recorded', error))
          .finally(() => {
            inFlight.delete(job);
            schedule(0);
          });
        inFlight.add(job);
      }
    } catch (error) {
      logError('webhook dispatcher could not claim deliveries', error);
    } finally {
      running = false;
    }
    const again = full || rerun;
    rerun = false;
    schedule(again ? 0 : opts.pollMs);
  };

  // A database that is down would otherwise log twice a second.
  const logError = (msg: string, error: unknown) => {
    if (stopped || Date.now() - lastErrorLog < 30_000) return;
    lastErrorLog = Date.now();
    console.error(JSON.stringify({ level: 'error', msg, error: loggableError(error) }));
  };

  schedule(0);

  return {
    /** Stops claiming; sends in flight get a few seconds to finish and record, then are cut off (their lease runs out). */
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      const drained = Promise.allSettled([...inFlight]);
      const grace = new Promise((resolve) => setTimeout(resolve, 5_000).unref());
      await Promise.race([drained, grace]);
      abort.abort();
      await drained;
    },
  };
}

const holder = globalThis as typeof globalThis & { __escrowDispatcher?: Dispatcher };

/**
 * One dispatcher per server process, started by startServer (never during `next build`, whose
 * instrumentation returns before startServer). It stops on SIGTERM/SIGINT alongside Next's own
 * shutdown; if nothing else handles the signal, the signal is raised again so the process still ends.
 */
export function startWebhookDispatcher(db: Db): Dispatcher {
  if (holder.__escrowDispatcher) return holder.__escrowDispatcher;
  const settings = env();
  const dispatcher = createDispatcher(db, {
    pollMs: settings.ESCROW_WEBHOOK_POLL_MS,
    retryBaseMs: settings.ESCROW_WEBHOOK_RETRY_BASE_MS,
    retryWindowMs: settings.ESCROW_WEBHOOK_RETRY_WINDOW_MS,
  });
  holder.__escrowDispatcher = dispatcher;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void dispatcher.stop();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
  return dispatcher;
}
