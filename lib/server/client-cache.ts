import 'server-only';
import type { DbOrTx } from './db/client';
import type { ClientRow } from './db/schema';
import { listen, notify } from './db/notifications';
import { env } from './env';
import { log } from './logger';


export type KeyOwner = { client: ClientRow; keyExpiresAt: Date | null };

/**
 * Clients by key hash, for a moment: every request names its key, and the lookup was one query in four
 * of a GET milestone. Several servers (and each server's worker processes) share one PostgreSQL, so a
 * change to a client or its keys (a key roll, the test clock) is announced with NOTIFY in the
 * transaction that makes it, and every process forgets that client's entries as the change commits.
 *
 * A process keeps entries only while it listens: when its listening connection drops it empties the
 * cache and asks the database every time until it listens again, since what it missed meanwhile is
 * unknown. CLIENT_CACHE_MS bounds what a notification lost some other way could leave behind. On the
 * embedded database there is one process, which forgets at once.
 */
const CLIENT_CACHE_MS = 2000;
const CLIENT_CACHE_LIMIT = 10_000;
const CHANNEL = 'escrow_client_changed';

type Entry = KeyOwner & { until: number };
// On globalThis: route handlers can be bundled apart from instrumentation, which starts the listener.
const holder = globalThis as typeof globalThis & {
  __escrowClientCache?: { entries: Map<string, Entry>; listening: boolean; started: boolean; generation: number; watchers: Set<() => void> };
};
const cache = (holder.__escrowClientCache ??= { entries: new Map(), listening: false, started: false, generation: 0, watchers: new Set() });

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
 * Call inside the transaction that changes a client or its keys: every server process forgets the client
 * when it commits. This process forgets at once too (on the embedded database nobody else listens).
 */
export async function announceClientChange(tx: DbOrTx, clientId: string): Promise<void> {
  await notify(tx, CHANNEL, clientId);
  forgetClient(clientId);
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
  listen(url, CHANNEL, {
    notification: (clientId) => forgetClient(clientId),
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
