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

/** `refetchInterval`: a query's own polling, e.g. faster while money is on its way (the default is 15 s). */
export type LiveOptions<T> = { queryKey: QueryKey; queryFn: () => Promise<T>; initialData?: T; keepPrevious?: boolean; refetchInterval?: (data: T | undefined) => number };

const toObserverOptions = <T>({ queryKey, queryFn, initialData, keepPrevious, refetchInterval }: LiveOptions<T>) => ({
  queryKey,
  queryFn,
  initialData,
  placeholderData: keepPrevious ? keepPreviousData : undefined,
  // Only when given: an undefined option would replace the client's default polling with none.
  ...(refetchInterval ? { refetchInterval: (query: { state: { data: T | undefined } }) => refetchInterval(query.state.data) } : {}),
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
