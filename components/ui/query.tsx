'use client';

import { createContext, useCallback, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';

/**
 * The dashboard's live data: each query shown polls every 15 s (not while the tab is hidden), refetches when
 * the tab comes back if older than 5 s, retries a failure once, and an action's onDone invalidates what it
 * changed by key prefix. This is the part of @tanstack/react-query the dashboard used, in about 1 kB, which
 * every page's first-load budget (issue #6) could not spare 10 kB for.
 */

export type QueryKey = readonly unknown[];
type State = { data: unknown; error: Error | null; updatedAt: number };
type Entry = {
  key: QueryKey;
  state: State;
  run?: () => Promise<unknown>;
  /** Bumped by each forced fetch: an answer from an older one (a poll overtaken by an invalidation) is dropped. */
  generation: number;
  inFlight?: Promise<State>;
  observers: number;
  listeners: Set<() => void>;
};

const STALE_MS = 5_000;
const POLL_MS = 15_000;
const RETRY_DELAY_MS = 1_000;

const hashOf = (key: QueryKey) => JSON.stringify(key);
const startsWith = (key: QueryKey, prefix: QueryKey) => prefix.every((part, i) => hashOf([part]) === hashOf([key[i]]));

export class QueryStore {
  private entries = new Map<string, Entry>();

  /**
   * The key's entry, made on first use; `run` is the latest fetcher. Server-rendered data seeds an entry
   * that has none, the same way on the server and in the browser's first render.
   */
  entry(key: QueryKey, run?: () => Promise<unknown>, initialData?: unknown): Entry {
    const hash = hashOf(key);
    let entry = this.entries.get(hash);
    if (!entry) {
      entry = { key, state: { data: undefined, error: null, updatedAt: 0 }, generation: 0, observers: 0, listeners: new Set() };
      this.entries.set(hash, entry);
    }
    if (run) entry.run = run;
    if (entry.state.data === undefined && entry.state.updatedAt === 0 && initialData !== undefined) {
      entry.state = { data: initialData, error: null, updatedAt: Date.now() };
    }
    return entry;
  }

  subscribe(entry: Entry, listener: () => void): () => void {
    entry.listeners.add(listener);
    return () => void entry.listeners.delete(listener);
  }

  /** While a component shows the entry: fetch it if stale, poll it, and refresh it when the tab comes back. */
  watch(entry: Entry): () => void {
    entry.observers++;
    const stale = () => Date.now() - entry.state.updatedAt > STALE_MS;
    if (stale()) void this.fetch(entry);
    const poll = setInterval(() => {
      if (document.visibilityState !== 'hidden') void this.fetch(entry);
    }, POLL_MS);
    const back = () => {
      if (document.visibilityState !== 'hidden' && stale()) void this.fetch(entry);
    };
    document.addEventListener('visibilitychange', back);
    return () => {
      entry.observers--;
      clearInterval(poll);
      document.removeEventListener('visibilitychange', back);
    };
  }

  private set(entry: Entry, state: State) {
    entry.state = state;
    entry.listeners.forEach((listener) => listener());
  }

  /** Joins the fetch under way unless `force`, which starts a new one whose answer wins. */
  fetch(entry: Entry, force = false): Promise<State> {
    if (entry.inFlight && !force) return entry.inFlight;
    const run = entry.run;
    if (!run) return Promise.resolve(entry.state);
    const generation = ++entry.generation;
    const attempt = async (retries: number): Promise<State> => {
      try {
        const data = await run();
        if (generation === entry.generation) this.set(entry, { data, error: null, updatedAt: Date.now() });
      } catch (error) {
        if (retries > 0) {
          await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
          return attempt(retries - 1);
        }
        if (generation === entry.generation) this.set(entry, { ...entry.state, error: error instanceof Error ? error : new Error(String(error)) });
      }
      return entry.state;
    };
    const promise = attempt(1).finally(() => {
      if (entry.inFlight === promise) entry.inFlight = undefined;
    });
    entry.inFlight = promise;
    return promise;
  }

  /** Everything under `prefix` (everything, without one) is stale: shown queries fetch again now. */
  invalidate(prefix: QueryKey = []) {
    for (const entry of this.entries.values()) {
      if (!startsWith(entry.key, prefix)) continue;
      entry.state = { ...entry.state, updatedAt: 0 };
      if (entry.observers > 0) void this.fetch(entry, true);
    }
  }

  setData<T>(key: QueryKey, update: (old: T | undefined) => T | undefined) {
    const entry = this.entry(key);
    this.set(entry, { ...entry.state, data: update(entry.state.data as T | undefined) });
  }
}

const StoreContext = createContext<QueryStore | null>(null);

/** One store per page tree (per request on the server, so no one's data is ever shared). */
export function QueryStoreProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => new QueryStore());
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

export function useQueryStore(): QueryStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useQueryStore outside QueryStoreProvider');
  return store;
}

type Options<T> = {
  queryKey: QueryKey;
  queryFn: () => Promise<T>;
  /** The server-rendered data: used while the store has none for this key. */
  initialData?: NoInfer<T>;
  /** While a new key (another page) loads, keep showing the last data instead of nothing. */
  keepPrevious?: boolean;
};
type Refetch<T> = { refetch: () => Promise<{ data: T | undefined }> };
export type QueryResult<T> = Refetch<T> &
  (
    | { data: undefined; error: null; isError: false; isPending: true }
    | { data: T | undefined; error: Error; isError: true; isPending: false }
    | { data: T; error: null; isError: false; isPending: false }
  );
export type DefinedQueryResult<T> = Refetch<T> & ({ data: T; error: Error; isError: true } | { data: T; error: null; isError: false });

export function useQuery<T>(options: Options<T> & { initialData: NoInfer<T> }): DefinedQueryResult<T>;
export function useQuery<T>(options: Options<T>): QueryResult<T>;
export function useQuery<T>({ queryKey, queryFn, initialData, keepPrevious = false }: Options<T>): QueryResult<T> {
  const store = useQueryStore();
  const entry = store.entry(queryKey, queryFn, initialData);
  const subscribe = useCallback((listener: () => void) => store.subscribe(entry, listener), [store, entry]);
  const state = useSyncExternalStore(subscribe, () => entry.state, () => entry.state);
  useEffect(() => store.watch(entry), [store, entry]);

  const [previous, setPrevious] = useState<T | undefined>(undefined);
  const current = state.data as T | undefined;
  if (keepPrevious && current !== undefined && current !== previous) setPrevious(current);
  const data = current ?? (keepPrevious ? previous : undefined);
  const refetch = async () => ({ data: (await store.fetch(entry, true)).data as T | undefined });
  if (state.error) return { data, error: state.error, isError: true, isPending: false, refetch };
  if (data === undefined) return { data: undefined, error: null, isError: false, isPending: true, refetch };
  return { data, error: null, isError: false, isPending: false, refetch };
}
