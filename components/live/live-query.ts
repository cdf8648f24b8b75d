'use client';

import type { QueryKey, QueryObserverResult } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { LiveOptions } from './query-client';

// react-query itself (./query-client) loads right after hydration: first paint uses the server's data.
const loadClient = () => import('./query-client');

type Refetch<T> = { refetch: () => Promise<{ data: T | undefined }> };
export type LiveResult<T> = Refetch<T> &
  (
    | { data: undefined; error: null; isError: false; isPending: true }
    | { data: T | undefined; error: Error; isError: true; isPending: false }
    | { data: T; error: null; isError: false; isPending: false }
  );
export type DefinedLiveResult<T> = Refetch<T> & ({ data: T; error: Error; isError: true } | { data: T; error: null; isError: false });

/**
 * @tanstack/react-query's useQuery for a page that paints before react-query has loaded: until the shared
 * QueryClient arrives (a moment after hydration) the server-rendered `initialData` is shown and the page is
 * fully interactive; from then on a QueryObserver on that client drives it (polling, refetch on focus,
 * retry, invalidation after actions, keepPreviousData while a new page of results loads).
 */
export function useLiveQuery<T>(options: LiveOptions<T> & { initialData: NoInfer<T> }): DefinedLiveResult<T>;
export function useLiveQuery<T>(options: LiveOptions<T>): LiveResult<T>;
export function useLiveQuery<T>(options: LiveOptions<T>): LiveResult<T> {
  const [result, setResult] = useState<QueryObserverResult<T, Error> | null>(null);
  const latest = useRef(options);
  const observer = useRef<{ setOptions: (next: LiveOptions<T>) => void } | null>(null);
  const hash = JSON.stringify(options.queryKey);

  useEffect(() => {
    latest.current = options;
  });
  useEffect(() => {
    let live = true;
    let unsubscribe = () => {};
    void loadClient().then(({ observe }) => {
      if (!live) return;
      const made = observe(latest.current, setResult);
      observer.current = made;
      unsubscribe = made.unsubscribe;
    });
    return () => {
      live = false;
      observer.current = null;
      unsubscribe();
    };
  }, []);
  useEffect(() => {
    observer.current?.setOptions(latest.current);
  }, [hash]);

  const refetch = async () => {
    if (!result) return { data: options.initialData };
    const next = await result.refetch();
    return { data: next.data };
  };
  const data = result ? result.data : options.initialData;
  if (result?.isError) return { data, error: result.error, isError: true, isPending: false, refetch };
  if (data === undefined) return { data: undefined, error: null, isError: false, isPending: true, refetch };
  return { data, error: null, isError: false, isPending: false, refetch };
}

/** After an action: everything under `prefix` is stale, and what is shown fetches again now. */
export async function invalidate(prefix: QueryKey = []): Promise<void> {
  const { queryClient } = await loadClient();
  await queryClient.invalidateQueries({ queryKey: prefix });
}

/** Writes a query's cached data (e.g. marking notifications read before the refetch answers). */
export async function setQueryData<T>(key: QueryKey, update: (old: T | undefined) => T | undefined): Promise<void> {
  const { queryClient } = await loadClient();
  queryClient.setQueryData<T>(key, update);
}
