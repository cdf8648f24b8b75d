import { QueryClient, QueryObserver, keepPreviousData, type QueryKey, type QueryObserverResult } from '@tanstack/react-query';

/**
 * The dashboard's one @tanstack/react-query client, in the browser only. This module is loaded right after
 * hydration (./live-query), so react-query's 10 kB is not part of any page's first-load JavaScript (issue #6)
 * while the pages paint with their server-rendered data.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    // Deadlines and the counterparty's moves appear without a reload: poll, and refetch on focus.
    queries: { staleTime: 5_000, refetchInterval: 15_000, refetchOnWindowFocus: true, retry: 1 },
  },
});
// What QueryClientProvider does on mount: without it, refetch on focus and on reconnect never fire.
queryClient.mount();

/** `pollWhile`: refetch every POLL_MS while it holds for the data shown (something still on its way). */
export type LiveOptions<T> = { queryKey: QueryKey; queryFn: () => Promise<T>; initialData?: T; keepPrevious?: boolean; pollWhile?: (data: T) => boolean };

const POLL_MS = 1500;

const toObserverOptions = <T>({ queryKey, queryFn, initialData, keepPrevious, pollWhile }: LiveOptions<T>) => ({
  queryKey,
  queryFn,
  initialData,
  placeholderData: keepPrevious ? keepPreviousData : undefined,
  ...(pollWhile ? { refetchInterval: (query: { state: { data: T | undefined } }) => (query.state.data !== undefined && pollWhile(query.state.data) ? POLL_MS : false) } : {}),
});

/** What useQuery does under the hood: a QueryObserver on the shared client, reporting each result. */
export function observe<T>(options: LiveOptions<T>, onResult: (result: QueryObserverResult<T, Error>) => void) {
  const observer = new QueryObserver<T, Error, T, T, QueryKey>(queryClient, toObserverOptions(options));
  const unsubscribe = observer.subscribe(onResult);
  onResult(observer.getCurrentResult());
  return {
    setOptions: (next: LiveOptions<T>) => observer.setOptions(toObserverOptions(next)),
    unsubscribe,
  };
}
