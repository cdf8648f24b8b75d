import 'server-only';
import http from 'node:http';
import https from 'node:https';
import { sql } from 'drizzle-orm';
import { webhookPayload } from '@/lib/contracts/webhook-records';
import type { WebhookTargetPolicy } from '@/lib/contracts/webhooks';
import { nextRetry } from '@/lib/escrow/retry-schedule';
import { signatureHeader } from '@/lib/escrow/webhook-signature';
import type { Db } from '../db/client';
import { events, webhookDeliveries } from '../db/schema';
import { PURPOSE, secretBox } from '../crypto/secret-box';
import { env } from '../env';
import { deliveryAgent, isPolicyRefusal, REFUSED_RESOLVED_ADDRESS, refusedBeforeConnecting, webhookTargetPolicy } from './webhook-target';
import { updateRows } from '../db/recordset';
import { queryRows } from '../db/rows';
import type { SelfScheduledRunner } from '../background-poller';
import { isDatabaseDown, noteDatabaseFailure } from '../db/availability';
import { log } from '../logger';

/**
 * The webhook dispatcher (docs/decisions.md §9): sends the outbox's pending deliveries, signed, and retries
 * failures with backoff. Several app processes may share one PostgreSQL; each claims deliveries in a
 * short transaction with `for update skip locked` and moves `next_attempt_at` ahead as a lease, so a
 * delivery is never sent by two processes at once. A process that dies mid-send leaves a lease that
 * simply runs out: delivery is at least once, and receivers deduplicate by event id.
 */

/** How long a claimed delivery is left to its sender: longer than the send timeout, with room to record the result. */
export const DELIVERY_LEASE_MS = 60_000;
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Sends in flight per process; a slow receiver holds one slot, not the whole queue. */
const MAX_IN_FLIGHT = 64;
/**
 * Claimed deliveries waiting for a slot, at most: the next claim is made while sends run, and each claim
 * takes many. A claim is one statement whatever its size, and taking a few at every freed slot cost the
 * database more than the sends did.
 */
const MAX_WAITING = MAX_IN_FLIGHT;
const CLAIM_AT_LEAST = MAX_WAITING / 2;
const USER_AGENT = 'EscrowDesk-Webhooks/1.0';
/** While the database is down, claims come this far apart at least. */
const OUTAGE_POLL_MS = 2_000;

type Claimed = {
  id: string;
  /** This attempt's number, counted at the claim: an attempt whose result is lost still counts. */
  attempts: number;
  claimedAt: Date;
  /** When the delivery was queued: its event's time, or a replay's (services/webhooks.ts), from which its retries are counted. */
  queuedAt: Date;
  endpointId: string;
  /** Where the endpoint's client may send (its mode and the switch): a live client's deliveries go to public https only. */
  policy: WebhookTargetPolicy;
  url: string;
  /** The URL parsed, and why the target policy refuses it before connecting (if it does): once per endpoint and claim. */
  target: URL;
  refused: string | undefined;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  /** The delivery's times before the claim: one never sent is handed back with them (releaseUnsent). */
  before: { lastAttemptAt: Date | null; nextAttemptAt: Date | null };
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

/** No earlier event of the delivery's transaction is still pending for its endpoint: it is next in that queue. */
const nextInItsQueue = sql`not exists (
  select 1 from webhook_deliveries earlier
  where earlier.status = 'pending' and earlier.endpoint_id = d.endpoint_id
    and earlier.transaction_id = d.transaction_id and earlier.sequence < d.sequence)`;
const endpointEnabled = sql`exists (select 1 from webhook_endpoints w where w.id = d.endpoint_id and w.enabled)`;

/** A timestamp column's value as the drivers give it in a raw statement (text), decoded as drizzle decodes the column. */
const instant = (value: string): Date => events.createdAt.mapFromDriverValue(value) as Date;

/** A claimed delivery as the claim's statement returns it: the endpoint's and the event's columns, not whole rows. */
type ClaimRow = {
  id: string;
  attempts: number;
  last_attempt_before: string | null;
  next_attempt_before: string | null;
  queued_at: string;
  client_mode: string;
  endpoint_id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  event_id: string;
  type: string;
  created_at: string;
  sequence: number | null;
  transaction_id: string | null;
  data: unknown;
};

/**
 * Claims up to `limit` due deliveries in one statement: retries whose time has come, soonest first, then
 * deliveries never tried, oldest first (a sandbox client's test clock may date events ahead of the wall
 * clock: those go at once). Per endpoint, a transaction's events go out in sequence order: one waits while
 * an earlier one of the same transaction is still pending there (being sent or waiting for a retry). Each
 * part walks a partial index in its order and stops at `limit`, so a claim costs the same whatever the
 * backlog, but for the entries of rows updated since, which a walk reads from the heap until VACUUM
 * removes them (or a scan marks them dead, which it does not while any transaction on the server, in
 * any database, is older). The retries' index gets one per lease taken, dated a lease after its claim,
 * so in a storm the retries' part reads more of them each time: `retries: false` leaves it out of the
 * claims between its looks (createDispatcher).
 */
export async function claimDueDeliveries(db: Db, now: Date, limit: number, opts: { retries?: boolean } = {}): Promise<Claimed[]> {
  if (limit <= 0) return [];
  const at = now.toISOString();
  const retry =
    opts.retries === false
      ? sql`select null::uuid as id, null::timestamptz as last_attempt_at, null::timestamptz as next_attempt_at where false`
      : sql`select d.id, d.last_attempt_at, d.next_attempt_at from webhook_deliveries d
      where d.status = 'pending' and d.attempts > 0 and d.next_attempt_at <= ${at}::timestamptz and ${endpointEnabled} and ${nextInItsQueue}
      order by d.next_attempt_at, d.id
      limit ${limit}
      for update of d skip locked`;
  const rows = await queryRows<ClaimRow>(db, sql`
    with retry as (
      ${retry}
    ), fresh as (
      select d.id, d.last_attempt_at, d.next_attempt_at from webhook_deliveries d
      where d.status = 'pending' and d.attempts = 0 and ${endpointEnabled} and ${nextInItsQueue}
      order by d.created_at, d.id
      limit ${limit}
      for update of d skip locked
    ), picked as (
      (select * from retry) union all (select * from fresh) limit ${limit}
    ), claimed as (
      update webhook_deliveries d
      set attempts = d.attempts + 1, last_attempt_at = ${at}::timestamptz, next_attempt_at = ${new Date(now.getTime() + DELIVERY_LEASE_MS).toISOString()}::timestamptz
      from picked where d.id = picked.id
      returning d.id, d.attempts, d.client_id, d.endpoint_id, d.event_id, d.created_at as queued_at,
        picked.last_attempt_at as last_attempt_before, picked.next_attempt_at as next_attempt_before
    )
    select c.id, c.attempts, c.last_attempt_before, c.next_attempt_before, c.queued_at, cl.mode as client_mode,
      w.id as endpoint_id, w.url, w.secret, w.previous_secret, w.previous_secret_expires_at,
      e.id as event_id, e.type, e.created_at, e.sequence, e.transaction_id, e.data
    from claimed c
    join webhook_endpoints w on w.id = c.endpoint_id
    join clients cl on cl.id = c.client_id
    join events e on e.id = c.event_id`);
  // An endpoint's secrets are opened, and its URL parsed and judged, once per claim however many of its deliveries it holds.
  const endpoints = new Map<string, Pick<Claimed, 'endpointId' | 'policy' | 'url' | 'target' | 'refused' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>>();
  const endpointOf = (row: ClaimRow) => {
    const known = endpoints.get(row.endpoint_id);
    if (known) return known;
    const box = secretBox();
    const policy = webhookTargetPolicy({ mode: row.client_mode });
    const endpoint = {
      endpointId: row.endpoint_id,
      policy,
      url: row.url,
      target: new URL(row.url),
      refused: refusedBeforeConnecting(row.url, policy),
      secret: box.open(row.secret, PURPOSE.webhookSecret),
      previousSecret: row.previous_secret === null ? null : box.open(row.previous_secret, PURPOSE.webhookSecret),
      previousSecretExpiresAt: row.previous_secret_expires_at === null ? null : instant(row.previous_secret_expires_at),
    };
    endpoints.set(row.endpoint_id, endpoint);
    return endpoint;
  };
  return rows.map((row) => ({
    id: row.id,
    attempts: Number(row.attempts),
    claimedAt: now,
    queuedAt: instant(row.queued_at),
    ...endpointOf(row),
    before: {
      lastAttemptAt: row.last_attempt_before === null ? null : instant(row.last_attempt_before),
      nextAttemptAt: row.next_attempt_before === null ? null : instant(row.next_attempt_before),
    },
    event: {
      id: row.event_id,
      type: row.type,
      createdAt: instant(row.created_at),
      sequence: row.sequence === null ? null : Number(row.sequence),
      transactionId: row.transaction_id,
      data: events.data.mapFromDriverValue(row.data),
    },
  }));
}

/** The body a receiver gets, byte for byte what the dashboard's payload viewer shows (lib/contracts). */
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

/** Requests on the wire, so that stopping can cut them off; the send's own timer bounds each one. */
type Sending = Set<http.ClientRequest>;

class SendTimedOut extends Error {}

/** What a request cut off by the dispatcher's stop fails with. */
const shuttingDown = () => Object.assign(new Error('the server was shutting down'), { name: 'AbortError' });

/**
 * One POST with Node's http(s) and request-filtering-agent, which checks the address each connection
 * resolves to (fetch takes no agent). Only the status counts: the answer's body is drained unread, so the
 * connection goes back to the agent for the next delivery (the send's timeout still bounds a body that
 * never ends). A plain timer rather than an AbortSignal per send: the signals (a timeout, and one
 * combined with the dispatcher's) were a good share of a send's CPU.
 */
function post(url: URL, policy: WebhookTargetPolicy, headers: Record<string, string>, body: string, sending: Sending): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: deliveryAgent(url, policy) },
      (response) => {
        resolve(response.statusCode ?? 0);
        response.resume();
      },
    );
    const timer = setTimeout(() => request.destroy(new SendTimedOut()), DELIVERY_TIMEOUT_MS).unref();
    sending.add(request);
    request.once('close', () => {
      clearTimeout(timer);
      sending.delete(request);
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function send(c: Claimed, sending: Sending): Promise<Outcome> {
  if (c.refused) return { ok: false, statusCode: null, error: c.refused };
  const body = deliveryBody(c.event);
  const now = new Date();
  const signature = signatureHeader({ secrets: signingSecrets(c, now), timestamp: Math.floor(now.getTime() / 1000), body });
  try {
    // A redirect is not an answer (http.request never follows one): the receiver's URL is the one registered.
    const status = await post(
      c.target,
      c.policy,
      {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'escrow-signature': signature,
        'escrow-event-id': c.event.id,
        'escrow-event-type': c.event.type,
        'escrow-delivery-id': c.id,
      },
      body,
      sending,
    );
    if (status >= 200 && status < 300) return { ok: true, statusCode: status, error: null };
    return { ok: false, statusCode: status, error: `the endpoint answered HTTP ${status}` };
  } catch (error) {
    return { ok: false, statusCode: null, error: describeFailure(error, error instanceof SendTimedOut) };
  }
}

type Settled = 'succeeded' | 'pending' | 'failed';
type AttemptResult = {
  id: string;
  attempts: number;
  status: Settled;
  deliveredAt: Date | null;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
};

/** What an attempt leaves on its delivery: delivered, a retry at its time, or given up. */
function attemptResult(c: Claimed, outcome: Outcome, finished: Date, opts: { retryBaseMs: number; retryWindowMs: number }): AttemptResult {
  const attempt = { id: c.id, attempts: c.attempts, lastStatusCode: outcome.statusCode };
  if (outcome.ok) return { ...attempt, status: 'succeeded', deliveredAt: finished, nextAttemptAt: null, lastError: null };
  const decision = nextRetry({
    failures: c.attempts,
    // A replayed delivery of an old event gets the same days of retries as a new one.
    eventCreatedAt: new Date(Math.max(c.event.createdAt.getTime(), c.queuedAt.getTime())),
    now: finished,
    random: Math.random(),
    baseMs: opts.retryBaseMs,
    windowMs: opts.retryWindowMs,
  });
  if (!decision.retry) return { ...attempt, status: 'failed', deliveredAt: null, nextAttemptAt: null, lastError: `${outcome.error}; ${decision.reason}`.slice(0, 1000) };
  let at = decision.at.getTime();
  // A retry exactly one lease after the attempt would read as "being sent" (isLeased).
  if (at - c.claimedAt.getTime() === DELIVERY_LEASE_MS) at += 1;
  return { ...attempt, status: 'pending', deliveredAt: null, nextAttemptAt: new Date(at), lastError: outcome.error };
}

/**
 * Writes attempts' results in one statement, each unless its lease ran out and another sender has claimed
 * the delivery since. A failure must not bring back a delivery settled meanwhile (its endpoint deleted); a
 * success is the truth either way.
 */
async function recordResults(db: Db, results: AttemptResult[]): Promise<void> {
  if (results.length === 0) return;
  await db.execute(updateRows(webhookDeliveries, results, { onlyWhere: sql`target.attempts = r.attempts and (r.status = 'succeeded' or target.status = 'pending')` }));
}

/**
 * Hands claimed deliveries that were never sent back as they were before the claim, so the next sender
 * takes them at once rather than when their lease runs out; one another sender has claimed since is left alone.
 */
async function releaseUnsent(db: Db, unsent: Claimed[]): Promise<void> {
  if (unsent.length === 0) return;
  const rows = unsent.map((c) => ({ id: c.id, attempts: c.attempts - 1, lastAttemptAt: c.before.lastAttemptAt, nextAttemptAt: c.before.nextAttemptAt }));
  await db.execute(updateRows(webhookDeliveries, rows, { onlyWhere: sql`target.attempts = r.attempts + 1 and target.status = 'pending'` }));
}

export type Dispatcher = { stop: () => Promise<void> };

/** What the log says of each attempt, once its result is recorded. */
type DeliveryLine = { msg: 'webhook delivery'; status: Settled } & Record<string, unknown>;

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
  let lastClaimAt = 0;
  let lastRetryLook = -Infinity;
  let retriesFound = false;
  const inFlight = new Set<Promise<void>>();
  const waiting: Claimed[] = [];
  const sending: Sending = new Set();

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), ms);
    timer.unref();
  };

  // Results wait here for the next write: one statement records every attempt that finished meanwhile,
  // and then the log says how each went.
  let toRecord: { result: AttemptResult; logLine: DeliveryLine; done: (error?: unknown) => void }[] = [];
  let recording = false;
  const recordWaiting = async () => {
    if (recording || toRecord.length === 0) return;
    recording = true;
    const batch = toRecord;
    toRecord = [];
    try {
      await recordResults(db, batch.map((b) => b.result));
      for (const { logLine } of batch) log[logLine.status === 'failed' ? 'warn' : 'info'](logLine);
      for (const b of batch) b.done();
    } catch (error) {
      for (const b of batch) b.done(error);
    } finally {
      recording = false;
    }
    void recordWaiting();
  };

  const deliver = async (c: Claimed) => {
    const started = performance.now();
    const outcome = await send(c, sending);
    const result = attemptResult(c, outcome, new Date(), opts);
    const logLine: DeliveryLine = {
      msg: 'webhook delivery',
      delivery_id: c.id,
      webhook_id: c.endpointId,
      event_id: c.event.id,
      event_type: c.event.type,
      attempt: c.attempts,
      status: result.status,
      status_code: outcome.statusCode,
      duration_ms: Math.round(performance.now() - started),
    };
    await new Promise<void>((resolve, reject) => {
      toRecord.push({ result, logLine, done: (error) => (error === undefined ? resolve() : reject(error)) });
      void recordWaiting();
    });
  };

  const startWaiting = () => {
    while (!stopped && inFlight.size < MAX_IN_FLIGHT && waiting.length > 0) {
      const job: Promise<void> = deliver(waiting.shift()!)
        .catch((error) => logError('webhook delivery could not be recorded', error))
        .finally(() => {
          inFlight.delete(job);
          startWaiting();
          schedule(0);
        });
      inFlight.add(job);
    }
  };

  const tick = async () => {
    if (stopped) return;
    if (running) {
      rerun = true;
      return;
    }
    const room = MAX_IN_FLIGHT + MAX_WAITING - inFlight.size - waiting.length;
    // A little room waits for more, so a backlog goes out in claims of many; a poll's time later it is claimed anyway (slow receivers hold the rest).
    if (room < CLAIM_AT_LEAST && performance.now() - lastClaimAt < opts.pollMs) {
      schedule(opts.pollMs);
      return;
    }
    running = true;
    lastClaimAt = performance.now();
    // Retries are looked for once a poll, and at every claim while they keep turning up (a receiver back
    // after a long absence): claimDueDeliveries says why not at every claim.
    const retries = retriesFound || lastClaimAt - lastRetryLook >= opts.pollMs;
    if (retries) lastRetryLook = lastClaimAt;
    let full = false;
    try {
      const batch = await claimDueDeliveries(db, new Date(), room, { retries });
      if (retries) retriesFound = batch.some((c) => c.attempts > 1);
      full = room > 0 && batch.length === room;
      // Claimed as the dispatcher was being stopped: handed straight back.
      if (stopped) await releaseUnsent(db, batch);
      else waiting.push(...batch);
      startWaiting();
    } catch (error) {
      logError('webhook dispatcher could not claim deliveries', error);
    } finally {
      running = false;
    }
    const again = full || rerun;
    rerun = false;
    schedule(isDatabaseDown() ? Math.max(opts.pollMs, OUTAGE_POLL_MS) : again ? 0 : opts.pollMs);
  };

  // A database that is down is said once for all (db/availability.ts); anything else at most every 30 s.
  const logError = (msg: string, error: unknown) => {
    if (stopped || noteDatabaseFailure(error) || Date.now() - lastErrorLog < 30_000) return;
    lastErrorLog = Date.now();
    log.error({ msg, error });
  };

  schedule(0);

  return {
    /** Stops claiming; sends in flight get a few seconds to finish and record, then are cut off (their lease runs out). */
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      const unsent = waiting.splice(0);
      const released = releaseUnsent(db, unsent).catch((error) => log.error({ msg: 'webhook deliveries claimed but not sent could not be handed back (their lease runs out)', error }));
      const drained = Promise.allSettled([...inFlight, released]);
      const grace = new Promise((resolve) => setTimeout(resolve, 5_000).unref());
      await Promise.race([drained, grace]);
      for (const request of sending) request.destroy(shuttingDown());
      await drained;
    },
  };
}

/** The dispatcher as a background runner (lib/server/runners.ts), with the server's settings. */
export const webhookDispatcher: SelfScheduledRunner = {
  name: 'webhook dispatcher',
  start: ({ db }) => {
    const settings = env();
    return createDispatcher(db, {
      pollMs: settings.ESCROW_WEBHOOK_POLL_MS,
      retryBaseMs: settings.ESCROW_WEBHOOK_RETRY_BASE_MS,
      retryWindowMs: settings.ESCROW_WEBHOOK_RETRY_WINDOW_MS,
    });
  },
};
