import 'server-only';
import { randomUUID } from 'node:crypto';
import { getDb, type Db, type Tx } from './db/client';
import type { ClientRow } from './db/schema';
import { countListeners, listen, notify } from './db/notifications';
import { env } from './env';
import { log } from './logger';


export type KeyOwner = { client: ClientRow; keyExpiresAt: Date | null };

/**
 * Clients by key hash, for a moment: every request names its key, and the lookup was one query in four
 * of a GET milestone. Several servers (and each server's worker processes) share one PostgreSQL, so a
 * change to a client or its keys (a key roll, the test clock) is announced with NOTIFY in the
 * transaction that makes it, and every process forgets that client's entries as the change commits.
 *
 * A change is answered only once every process has forgotten: each listening process says so with a
 * `heard` notification, and the change waits for as many as there are listening connections on the
 * database, or for CLIENT_CACHE_MS, after which nothing cached before the change is left anyway. So a
 * key revoked or a clock moved holds on every server from the moment its response arrives
 * (docs/operations.md, "Several servers").
 *
 * A process keeps entries only while it listens: when its listening connection drops it empties the
 * cache and asks the database every time until it listens again, since what it missed meanwhile is
 * unknown. On the embedded database there is one process, which forgets at once.
 */
const CLIENT_CACHE_MS = 2000;
const CLIENT_CACHE_LIMIT = 10_000;
const CHANNEL = 'escrow_client_changed';
// Each process's listening connection goes by this name, so a change can count the processes to wait for.
const LISTENER = 'escrow-desk client changes';

type Entry = KeyOwner & { until: number };
/** A change of this process's, waiting to be heard: the processes that said so, and how to wake its wait. */
type Pending = { heard: Set<string>; wake: () => void };
// On globalThis: route handlers can be bundled apart from instrumentation, which starts the listener.
const holder = globalThis as typeof globalThis & {
  __escrowClientCache?: {
    entries: Map<string, Entry>;
    listening: boolean;
    started: boolean;
    generation: number;
    watchers: Set<() => void>;
    pending: Map<string, Pending>;
    processId: string;
  };
};
const cache = (holder.__escrowClientCache ??= {
  entries: new Map(),
  listening: false,
  started: false,
  generation: 0,
  watchers: new Set(),
  pending: new Map(),
  processId: randomUUID(),
});

/**
 * Calls `watcher` whenever this process learns that a client changed (a test clock moved among others),
 * or that it may have missed such a change (its listening connection dropped).
 */
export function watchClientChanges(watcher: () => void): void {
  cache.watchers.add(watcher);
}

export function cachedKeyOwner(keyHash: string, nowMs: number): KeyOwner | undefined {
  const entry = cache.entries.get(keyHash);
  return entry && entry.until > nowMs ? entry : undefined;
}

/** The generation a lookup began in: a change forgotten since then makes its answer too old to keep. */
export function cacheGeneration(): number {
  return cache.generation;
}

export function rememberKeyOwner(keyHash: string, owner: KeyOwner, lookupGeneration: number, nowMs: number): void {
  if (!cache.listening || lookupGeneration !== cache.generation) return;
  if (cache.entries.size >= CLIENT_CACHE_LIMIT) cache.entries.clear();
  cache.entries.set(keyHash, { ...owner, until: nowMs + CLIENT_CACHE_MS });
}

function forgetClient(clientId: string): void {
  cache.generation++;
  for (const [hash, entry] of cache.entries) if (entry.client.id === clientId) cache.entries.delete(hash);
  for (const watcher of cache.watchers) watcher();
}

function forgetAll(): void {
  cache.generation++;
  cache.entries.clear();
  for (const watcher of cache.watchers) watcher();
}

/**
 * Runs `work` in one database transaction that also announces a change to the client or its keys, and
 * resolves once every server process has forgotten the client (or CLIENT_CACHE_MS has passed): the
 * caller's answer is then true on every server. On the embedded database this process, the only one,
 * forgets as the transaction commits.
 */
export async function changeClient<T>(db: Db, clientId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (!env().DATABASE_URL) {
    const result = await db.transaction(work);
    forgetClient(clientId);
    return result;
  }
  const changeId = randomUUID();
  const pending: Pending = { heard: new Set(), wake: () => undefined };
  cache.pending.set(changeId, pending);
  try {
    const result = await db.transaction(async (tx) => {
      const done = await work(tx);
      await notify(tx, CHANNEL, `changed ${clientId} ${changeId}`);
      forgetClient(clientId);
      return done;
    });
    await heardEverywhere(pending);
    return result;
  } finally {
    cache.pending.delete(changeId);
  }
}

async function heardEverywhere(pending: Pending): Promise<void> {
  const giveUpAt = Date.now() + CLIENT_CACHE_MS;
  // Counted after the commit: a process that began listening since then forgot everything as it began.
  const listeners = await countListeners(await getDb(), LISTENER).catch(() => Infinity);
  while (pending.heard.size < listeners && Date.now() < giveUpAt) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, giveUpAt - Date.now());
      pending.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** What another process announced: a change to forget, or that a process forgot one of ours. */
function heardOnChannel(payload: string): void {
  const [kind, first, second] = payload.split(' ');
  if (kind === 'changed' && first) {
    forgetClient(first);
    if (second) void sayHeard(second);
  } else if (kind === 'heard' && first && second) {
    const pending = cache.pending.get(first);
    if (!pending) return;
    pending.heard.add(second);
    pending.wake();
  } else if (kind && !first) {
    // A bare client id, from a process of an earlier release during a rolling restart.
    forgetClient(kind);
  }
}

async function sayHeard(changeId: string): Promise<void> {
  try {
    await notify(await getDb(), CHANNEL, `heard ${changeId} ${cache.processId}`);
  } catch (error) {
    // The change waits out CLIENT_CACHE_MS instead.
    log.warn({ msg: 'could not say a client change was heard', error: String((error as Error)?.message ?? error) });
  }
}

/** Once per server process, at start. */
export function listenForClientChanges(): void {
  if (cache.started) return;
  cache.started = true;
  const url = env().DATABASE_URL;
  if (!url) {
    cache.listening = true;
    return;
  }
  let lostAt: number | undefined;
  listen(url, CHANNEL, LISTENER, {
    notification: heardOnChannel,
    listening: () => {
      forgetAll();
      cache.listening = true;
      if (lostAt !== undefined) log.info({ msg: 'listening for client changes again', after_ms: Date.now() - lostAt });
      lostAt = undefined;
    },
    lost: (error) => {
      cache.listening = false;
      forgetAll();
      if (lostAt === undefined) {
        lostAt = Date.now();
        log.warn({ msg: 'not listening for client changes: every request looks its key up until the connection is back', error: String((error as Error)?.message ?? error) });
      }
    },
  });
}
